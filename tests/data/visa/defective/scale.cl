kernel void scale(global float *x, float a) {
    size_t i = get_global_id(0);
    x[i] = a * x[i];
}
