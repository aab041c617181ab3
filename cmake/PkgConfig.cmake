# clatomics.pc, for users who build without CMake:
#   c++ -std=c++17 main.cpp $(pkg-config --cflags --libs clatomics)
# Included from the top-level CMakeLists.txt inside its install block.

# Everything goes into the public fields (Requires, Libs), none into Requires.private or
# Libs.private: clatomics is only a static library, so the plain command above must bring
# everything libclatomics.a needs onto the link line, and pkg-config hands out the .private
# fields only with --static. OpenCL is public in its own right too: the public headers include
# <CL/opencl.hpp> (so its Cflags count) and the user's code calls OpenCL through it.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(CLATOMICS_PC_OPENCL QUIET OpenCL)  # OpenCL.pc: Debian's ocl-icd-opencl-dev
endif()
set(CLATOMICS_PC_CFLAGS "")
if(CLATOMICS_PC_OPENCL_FOUND)
  set(CLATOMICS_PC_REQUIRES "OpenCL")
  set(CLATOMICS_PC_LIBS "")
else()
  # No OpenCL.pc here: name the headers and the library CMake found.
  set(CLATOMICS_PC_REQUIRES "")
  foreach(dir IN LISTS OpenCL_INCLUDE_DIRS)
    string(APPEND CLATOMICS_PC_CFLAGS " -I${dir}")
  endforeach()
  string(APPEND CLATOMICS_PC_LIBS " ${OpenCL_LIBRARIES}")
endif()
# The library's threads (std::thread, std::mutex): -pthread, which GCC and Clang accept on every
# libc (CMake's Threads::Threads is empty where libc has pthreads built in, as on Debian 12).
string(APPEND CLATOMICS_PC_LIBS " -pthread")

foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(CLATOMICS_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(CLATOMICS_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()

# The prefix is the one the package is installed to, and `cmake --install --prefix DIR` (as the
# package tests do) changes it after configuring: so the file is finished at install time. Now:
# everything but the prefix (kept as the placeholder @CLATOMICS_PC_PREFIX@).
set(CLATOMICS_PC_PREFIX "@CLATOMICS_PC_PREFIX@")
configure_file("${CMAKE_CURRENT_LIST_DIR}/clatomics.pc.in" "${CMAKE_CURRENT_BINARY_DIR}/clatomics.pc.in" @ONLY)
unset(CLATOMICS_PC_PREFIX)
# At install time: the prefix, then the file is installed like any other (DESTDIR and the install
# manifest included). install() rules run in the order they are given.
install(CODE "
  set(CLATOMICS_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/clatomics.pc.in\" \"${CMAKE_CURRENT_BINARY_DIR}/clatomics.pc\" @ONLY)")
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/clatomics.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
