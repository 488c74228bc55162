// OCLOC_OPTIONS: -cl-std=CL2.0
// Pointers in program-scope data: the runtime adds the address of the buffer they point
// into (gpukit visa run test fixture).
global int table[] = {5, 6};
constant int limits[] = {-9, 9};
global int *second = &table[1];
constant int *upper = &limits[1];
kernel void data_pointers(global int *out) { out[0] = *second; out[1] = *upper; }
