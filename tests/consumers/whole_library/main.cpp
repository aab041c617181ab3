// Linked with every object of the static library (--whole-archive): the link fails if any object
// names a symbol nothing defines, which an optimised build can hide (a call the optimiser removed)
// and a build with no optimisation, CMake's default, exposes.
int main() { return 0; }
