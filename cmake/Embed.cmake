# clatomics_embed(<target> ROOT <dir> NAMESPACE <ns> FILES <paths relative to ROOT>...)
# Embeds the files into <target> as byte arrays, served by <ns>::embedded_file(path) and
# <ns>::embedded_paths() (see EmbedOpenCL.cmake); regenerated when any of them changes. Each
# target embeds only its own kernels.
set(CLATOMICS_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/EmbedOpenCL.cmake")
function(clatomics_embed target)
  cmake_parse_arguments(ARG "" "ROOT;NAMESPACE" "FILES" ${ARGN})
  set(output "${CMAKE_CURRENT_BINARY_DIR}/generated/${target}_embedded.cpp")
  list(TRANSFORM ARG_FILES PREPEND "${ARG_ROOT}/" OUTPUT_VARIABLE inputs)
  string(REPLACE ";" "|" files "${ARG_FILES}")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" "-DROOT=${ARG_ROOT}" "-DFILES=${files}" "-DNAMESPACE=${ARG_NAMESPACE}"
            "-DOUTPUT=${output}" -P "${CLATOMICS_EMBED_SCRIPT}"
    DEPENDS ${inputs} "${CLATOMICS_EMBED_SCRIPT}"
    COMMENT "Embedding OpenCL C sources into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
endfunction()
