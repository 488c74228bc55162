// 32-bit division, which IGC emulates on DG2 with inv, mad, bfn and add3 under
// round-toward-zero (%cr0 bits 4-5).
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void int_div_dg2(__global uint *out, __global const uint *a) {
  int i = get_global_id(0);
  out[i] = a[i] / (uint)(i + 7);
  out[16 + i] = (uint)((int)a[i] / -(i + 2));
}
