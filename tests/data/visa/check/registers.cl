// `visa run --check=uninit` on registers: IGC keeps the private array in registers
// and writes it through indexed (address-register) moves. With indices that skip
// an element, the store of the array reads a register nothing wrote.
kernel void uninit_register(global const uint *indices, global float *out) {
  float scratch[4];
  for (int i = 0; i < 4; i++)
    scratch[indices[i] & 3] = i;
  for (int i = 0; i < 4; i++)
    out[get_global_id(0) * 4 + i] = scratch[i];
}
