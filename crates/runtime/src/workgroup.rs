//! The local work size the runtime uses when the caller gives none: a kernel's
//! `reqd_work_group_size` when the binary has one, else the size NEO's
//! `computeWorkgroupSizeND` (its default algorithm) picks for the global size.
//!
//! Followed here: without shared local memory or barriers, each dimension takes the
//! largest power of two (up to SIMD x 32) dividing its global size; a group larger
//! than the device's maximum or than 32 hardware threads is shrunk to an optimal
//! thread count (`computePowerOfTwoLWS`); otherwise, a global size within the
//! maximum is one group; a 1-D size takes the largest product of its prime factors
//! within the maximum (`computeWorkgroupSize1D`). Not followed: the product-specific
//! preferred group count per subslice (SIMD32 launches of more than 1024 items), the
//! N x 4 shapes of image kernels, and the ratio search for 2-D and 3-D sizes
//! (`choosePrefferedWorkgroupSize`), where the earlier 2-D search
//! (`computeWorkgroupSize2D`: fewest threads dispatched, then fewest idle channels)
//! stands in.

use gpukit_intel::KernelAbi;

/// NEO's `optimalHardwareThreadCountGeneric`: thread counts a group is shrunk to.
const OPTIMAL_THREADS: [u32; 6] = [32, 16, 8, 4, 2, 1];
/// GFXCORE families up to Gen12LP have a 512-item maximum work-group size; the Xe
/// cores after it (Xe-HPG dg2 0xc07 on) 1024.
const FIRST_1024_ITEM_CORE: u32 = 0xc07;

/// The device's maximum work-group size.
fn max_group(device: Option<u32>) -> u32 {
    match device {
        Some(d) if d >= FIRST_1024_ITEM_CORE => 1024,
        _ => 512,
    }
}

/// The local size of a launch: the caller's (`[0, 0, 0]`: none given), checked
/// against the kernel's required size, else the runtime's choice.
pub fn local_for(
    abi: &KernelAbi,
    device: Option<u32>,
    uses_slm: bool,
    global: [u32; 3],
    work_dim: u32,
    local: [u32; 3],
) -> Result<[u32; 3], String> {
    let given = local != [0; 3];
    match abi.required_local {
        Some(required) if given && local != required => Err(format!(
            "--local {} differs from the kernel's reqd_work_group_size({})",
            shape(local, work_dim.max(1)),
            shape(required, 3)
        )),
        Some(required) => Ok(required),
        None if given => Ok(local),
        None => Ok(default_local(
            global,
            work_dim.clamp(1, 3),
            abi.simd_size.max(1),
            max_group(device),
            uses_slm || abi.has_barriers,
        )),
    }
}

fn shape(v: [u32; 3], dims: u32) -> String {
    v[..dims.min(3) as usize]
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// NEO's default local size for `global` (see the module's notes).
pub fn default_local(
    global: [u32; 3],
    dims: u32,
    simd: u32,
    max: u32,
    slm_or_barriers: bool,
) -> [u32; 3] {
    let dims = dims as usize;
    let total = global.iter().map(|g| u64::from(*g)).product::<u64>();
    if !slm_or_barriers {
        let limit = simd.saturating_mul(OPTIMAL_THREADS[0]);
        let mut pow2 = [1u32; 3];
        for d in 0..dims {
            let mut n = limit.max(1).next_power_of_two().min(1 << 31);
            while n > 1 && global[d] % n != 0 {
                n >>= 1;
            }
            pow2[d] = n;
        }
        let all = pow2.iter().map(|p| u64::from(*p)).product::<u64>();
        if all > u64::from(simd) && (all > u64::from(max) || all > u64::from(limit)) {
            return power_of_two_shape(pow2, dims, simd, max);
        } else if all >= u64::from(simd) {
            return pow2;
        }
    }
    if total <= u64::from(max) {
        return global;
    }
    if dims == 1 {
        return [largest_factor(global[0], max), 1, 1];
    }
    two_d(global, simd, max)
}

/// `computePowerOfTwoLWS`: the optimal thread count's items laid out over the
/// power-of-two divisors, X first.
fn power_of_two_shape(pow2: [u32; 3], dims: usize, simd: u32, max: u32) -> [u32; 3] {
    let threads = OPTIMAL_THREADS
        .iter()
        .copied()
        .find(|t| *t == 1 || t * simd <= max)
        .unwrap_or(1);
    let items = threads * simd;
    let mut x = items;
    while x > pow2[0] {
        x >>= 1;
    }
    let x = x.max(1);
    if dims == 2 {
        return [x, items / x, 1];
    }
    let mut y = items / x;
    while y > pow2[1] {
        y >>= 1;
    }
    let y = y.max(1);
    [x, y, (items / (x * y)).max(1)]
}

/// `computeWorkgroupSize1D`: the largest divisor of `items` within `max` made of
/// its factor of two and then its prime factors up to 251, smallest first.
fn largest_factor(items: u32, max: u32) -> u32 {
    const PRIMES: [u32; 54] = [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
        97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181,
        191, 193, 197, 199, 211, 223, 227, 229, 233, 239, 241, 251,
    ];
    let mut size = (1u32 << items.trailing_zeros().min(31)).min(max);
    for p in PRIMES {
        let Some(next) = size.checked_mul(p).filter(|n| *n <= items) else {
            break;
        };
        let mut next = next;
        while next <= max && items % next == 0 {
            size = next;
            match next.checked_mul(p) {
                Some(n) => next = n,
                None => break,
            }
        }
    }
    size
}

/// `computeWorkgroupSize2D`: of the X x Y divisors within `max`, the one that
/// dispatches the fewest hardware threads, then leaves the fewest channels idle.
fn two_d(global: [u32; 3], simd: u32, max: u32) -> [u32; 3] {
    let factors = |n: u32| (2..=max).filter(move |i| n % i == 0).collect::<Vec<u32>>();
    let (xs, ys) = (factors(global[0]), factors(global[1]));
    let mut best = [1, 1, 1];
    let mut best_key = (u64::MAX, u64::MAX);
    for &x in xs.iter().rev() {
        for &y in &ys {
            if u64::from(x) * u64::from(y) > u64::from(max) {
                break;
            }
            let groups = u64::from(global[0].div_ceil(x)) * u64::from(global[1].div_ceil(y));
            let threads = u64::from((x * y).div_ceil(simd)) * groups;
            let waste = u64::from(simd - ((x * y - 1) & (simd - 1))) * groups;
            if (threads, waste) < best_key {
                best_key = (threads, waste);
                best = [x, y, 1];
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_local_sizes_follow_neo() {
        // Powers of two within 32 threads: the whole divisor.
        assert_eq!(default_local([128, 1, 1], 1, 32, 1024, false), [128, 1, 1]);
        assert_eq!(default_local([4096, 1, 1], 1, 16, 512, false), [512, 1, 1]);
        assert_eq!(default_local([64, 64, 1], 2, 16, 512, false), [64, 8, 1]);
        // Not a power of two, within the maximum: one group.
        assert_eq!(default_local([100, 1, 1], 1, 16, 512, false), [100, 1, 1]);
        // 1-D beyond the maximum: its factor of two (8), then primes from 2 up while
        // they divide (x 3 x 5; 600 is past the maximum).
        assert_eq!(default_local([3000, 1, 1], 1, 16, 512, false), [120, 1, 1]);
        // Barriers: no power-of-two shortcut.
        assert_eq!(default_local([128, 1, 1], 1, 32, 1024, true), [128, 1, 1]);
        assert_eq!(default_local([2048, 1, 1], 1, 32, 1024, true), [1024, 1, 1]);
        assert_eq!(largest_factor(7, 512), 7);
        assert_eq!(largest_factor(1 << 20, 512), 512);
    }
}
