// Escape-time Mandelbrot: one work item per pixel, an ALU loop of up to MAX_ITER steps.
__kernel void mandelbrot(__global uint *out, uint width, uint height, uint max_iter) {
    uint x = get_global_id(0), y = get_global_id(1);
    float cr = -2.0f + 3.0f * (float)x / (float)width;
    float ci = -1.5f + 3.0f * (float)y / (float)height;
    float zr = 0.0f, zi = 0.0f;
    uint i = 0;
    while (i < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        i++;
    }
    out[y * width + x] = i;
}
