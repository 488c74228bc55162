// Kernels for `visa run --check` (tests/cli/visa/check_*): each check, racy and clean.

// Work-item i reads the element work-item i-1 writes: a read-write race.
kernel void race_global(global int *data) {
  int i = get_global_id(0);
  if (i > 0)
    data[i] = data[i - 1];
}

// Each work-item reads and writes its own element only.
kernel void race_global_clean(global int *data) {
  int i = get_global_id(0);
  data[i] = data[i] + 1;
}

// A neighbour's __local element read with no barrier after the writes.
kernel void race_local(global int *out, local int *scratch) {
  int l = get_local_id(0);
  scratch[l] = l;
  out[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)];
}

// The same, with the barrier.
kernel void race_local_clean(global int *out, local int *scratch) {
  int l = get_local_id(0);
  scratch[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)];
}

// One element of a __local array is never written, and read.
kernel void uninit_local(global int *out) {
  local int scratch[16];
  int l = get_local_id(0);
  if (l != 3)
    scratch[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l];
}

kernel void uninit_local_clean(global int *out) {
  local int scratch[16];
  int l = get_local_id(0);
  scratch[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[15 - l];
}

// A barrier only some work-items of the group reach.
kernel void barrier_divergent(global int *data) {
  int i = get_local_id(0);
  if (i != 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  data[get_global_id(0)] = i;
}

kernel void barrier_divergent_clean(global int *data) {
  int i = get_local_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  data[get_global_id(0)] = i;
}
