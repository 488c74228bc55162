//! The semantics library against a direct transcription of the spec's pseudo-code
//! (`5_operands.md`): every legal (exec size, width, vstride, hstride, type) with
//! sampled origins and GRF sizes, every illegal combination reported, and
//! `EvaluateChEn` for every (M1..M8[_NM], exec size).

use gpukit_visa::isa::Type;
use gpukit_visa::semantics::*;
use proptest::prelude::*;

const WIDTHS: [u32; 5] = [1, 2, 4, 8, 16];
const VSTRIDES: [u32; 7] = [0, 1, 2, 4, 8, 16, 32];
const HSTRIDES: [u32; 4] = [0, 1, 2, 4];
const GRFS: [u32; 2] = [32, 64];

/// Every type with a binary form and a size, except the packed vectors and BOOL,
/// which no region reads.
fn region_types() -> Vec<Type> {
    (0u8..16)
        .map(Type)
        .filter(|t| !matches!(*t, Type::V | Type::UV | Type::VF | Type::BOOL))
        .collect()
}

// ---- the spec's pseudo-code, transcribed ----

#[allow(clippy::too_many_arguments)]
fn spec_source(r: i64, c: i64, grf: i64, size: i64, exec: i64, w: i64, v: i64, h: i64) -> Vec<i64> {
    let mut source_data_elements = vec![i64::MIN; exec as usize];
    let mut count = 0usize;
    let first_element_index = r * (grf / size) + c;
    for i in 0..exec / w {
        for j in 0..w {
            source_data_elements[count] = (first_element_index + i * v + j * h) * size;
            count += 1;
        }
    }
    source_data_elements
}

fn spec_destination(r: i64, c: i64, grf: i64, size: i64, exec: i64, h: i64) -> Vec<i64> {
    let mut dst_data_elements = vec![i64::MIN; exec as usize];
    let first_element_index = r * (grf / size) + c;
    for i in 0..exec {
        dst_data_elements[i as usize] = (first_element_index + i * h) * size;
    }
    dst_data_elements
}

fn spec_multi(addr: &[i64], offset: i64, size: i64, exec: i64, w: i64, h: i64) -> Vec<i64> {
    let mut source_data_elements = vec![i64::MIN; exec as usize];
    let mut count = 0usize;
    for i in 0..exec / w {
        let row_start_offset = addr[i as usize] + offset;
        for j in 0..w {
            source_data_elements[count] = row_start_offset + j * h * size;
            count += 1;
        }
    }
    source_data_elements
}

/// The spec's region restrictions 1-5 as stated.
fn spec_legal(exec: u32, w: u32, v: u32, h: u32, dst: bool) -> bool {
    let exec_ok = EXEC_SIZES.contains(&exec);
    if dst {
        return exec_ok && HSTRIDES.contains(&h) && h != 0;
    }
    exec_ok && WIDTHS.contains(&w) && VSTRIDES.contains(&v) && HSTRIDES.contains(&h) && exec >= w
}

fn offsets(e: &[Element]) -> Vec<i64> {
    e.iter().map(|e| e.byte_offset).collect()
}

fn spec_chen(exec: u32, mask: MaskControl, em: u32, pred: Option<Predication>) -> u32 {
    let offset = (mask.group as u32) * 4;
    let mut ch_en = [false; 32];
    let bit = |m: u32, n: u32| (m >> n) & 1 == 1;
    for n in 0..exec {
        ch_en[n as usize] = if mask.no_mask {
            true
        } else {
            bit(em, n + offset)
        };
    }
    if let Some(p) = pred {
        let mut p_mask = [false; 32];
        for n in 0..exec {
            p_mask[n as usize] = bit(p.bits, n + offset);
        }
        match p.control {
            PredControl::Any => {
                let any = p_mask[..exec as usize].iter().any(|b| *b);
                p_mask[..exec as usize].fill(any);
            }
            PredControl::All => {
                let all = p_mask[..exec as usize].iter().all(|b| *b);
                p_mask[..exec as usize].fill(all);
            }
            PredControl::Sequential => {}
        }
        if p.inverse {
            for b in p_mask.iter_mut() {
                *b = !*b;
            }
        }
        for n in 0..exec as usize {
            ch_en[n] &= p_mask[n];
        }
    }
    for b in ch_en.iter_mut().skip(exec as usize) {
        *b = false;
    }
    ch_en
        .iter()
        .enumerate()
        .fold(0u32, |m, (n, b)| if *b { m | 1 << n } else { m })
}

// ---- exhaustive over the legal combinations ----

#[test]
fn every_legal_source_region_matches_the_pseudo_code() {
    let mut cases = 0u64;
    for ty in region_types() {
        let size = ty.size().unwrap() as u32;
        for grf in GRFS {
            for exec in EXEC_SIZES {
                for w in WIDTHS.into_iter().filter(|w| *w <= exec) {
                    for v in VSTRIDES {
                        for h in HSTRIDES {
                            for (row, col) in [(0, 0), (1, 0), (0, 1), (2, grf / size - 1)] {
                                let origin = direct_origin(row, col, size, grf);
                                let got = source_elements(
                                    origin,
                                    size,
                                    grf,
                                    exec,
                                    RegionParams::new(v, w, h),
                                )
                                .unwrap_or_else(|e| panic!("{exec} <{v};{w},{h}> {ty:?}: {e}"));
                                let want = spec_source(
                                    row.into(),
                                    col.into(),
                                    grf.into(),
                                    size.into(),
                                    exec.into(),
                                    w.into(),
                                    v.into(),
                                    h.into(),
                                );
                                assert_eq!(
                                    offsets(&got),
                                    want,
                                    "{exec} <{v};{w},{h}> {ty:?} ({row},{col}) grf {grf}"
                                );
                                assert!(got.iter().enumerate().all(|(i, e)| e.channel == i as u32));
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // 12 types x 2 GRF sizes x 20 (exec, width <= exec) x 7 x 4 strides x 4 origins.
    assert_eq!(cases, 12 * 2 * 20 * 7 * 4 * 4);
    eprintln!("{cases} source regions checked");
}

#[test]
fn every_legal_destination_matches_the_pseudo_code() {
    for ty in region_types() {
        let size = ty.size().unwrap() as u32;
        for grf in GRFS {
            for exec in EXEC_SIZES {
                for h in [1, 2, 4] {
                    for (row, col) in [(0, 0), (3, 1), (1, grf / size - 1)] {
                        let origin = direct_origin(row, col, size, grf);
                        let got = destination_elements(origin, size, grf, exec, h).unwrap();
                        let want = spec_destination(
                            row.into(),
                            col.into(),
                            grf.into(),
                            size.into(),
                            exec.into(),
                            h.into(),
                        );
                        assert_eq!(offsets(&got), want);
                    }
                }
            }
        }
    }
}

#[test]
fn every_illegal_combination_is_reported() {
    let mut illegal = 0u64;
    let probe = [0u32, 1, 2, 3, 4, 5, 8, 16, 32, 64];
    for exec in [0u32, 1, 2, 3, 4, 8, 16, 32, 64] {
        for w in probe {
            for v in probe {
                for h in probe {
                    for dst in [false, true] {
                        let legal = spec_legal(exec, w, v, h, dst);
                        let errors = check_region(exec, RegionParams::new(v, w, h), dst);
                        assert_eq!(
                            errors.is_empty(),
                            legal,
                            "exec {exec} <{v};{w},{h}> dst {dst}: {errors:?}"
                        );
                        let enumerated = if dst {
                            destination_elements(0, 4, 32, exec, h).is_ok()
                        } else {
                            source_elements(0, 4, 32, exec, RegionParams::new(v, w, h)).is_ok()
                        };
                        assert_eq!(enumerated, legal);
                        if !legal {
                            illegal += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(illegal > 10_000);
    eprintln!("{illegal} illegal combinations reported");
}

#[test]
fn channel_enable_for_every_mask_and_exec_size() {
    let controls = [
        None,
        Some((PredControl::Sequential, false)),
        Some((PredControl::Sequential, true)),
        Some((PredControl::Any, false)),
        Some((PredControl::Any, true)),
        Some((PredControl::All, false)),
        Some((PredControl::All, true)),
    ];
    let patterns = [
        0u32,
        u32::MAX,
        0x5555_5555,
        0xF0F0_0FF0,
        0x8000_0001,
        0x0000_FF00,
        0xFFFF_FFFE,
    ];
    for code in 0u8..16 {
        let mask = MaskControl::from_code(code).unwrap();
        for exec in EXEC_SIZES {
            for em in patterns {
                for pbits in patterns {
                    for c in controls {
                        let pred = c.map(|(control, inverse)| Predication {
                            bits: pbits,
                            control,
                            inverse,
                        });
                        let got = channel_enable(exec, mask, ExecMask(em), pred);
                        if mask.offset() + exec > 32 {
                            assert!(got.is_err());
                        } else {
                            assert_eq!(
                                got.unwrap(),
                                spec_chen(exec, mask, em, pred),
                                "{} exec {exec}",
                                mask.name()
                            );
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn sampled_origins_match(ty_index in 0usize..12, grf_index in 0usize..2, exec_index in 0usize..6,
                             w_index in 0usize..5, v_index in 0usize..7, h_index in 0usize..4,
                             row in 0u32..128, col_seed in 0u32..64) {
        let ty = region_types()[ty_index];
        let size = ty.size().unwrap() as u32;
        let grf = GRFS[grf_index];
        let exec = EXEC_SIZES[exec_index];
        let (w, v, h) = (WIDTHS[w_index], VSTRIDES[v_index], HSTRIDES[h_index]);
        let col = col_seed % (grf / size);
        let origin = direct_origin(row, col, size, grf);
        let got = source_elements(origin, size, grf, exec, RegionParams::new(v, w, h));
        if w > exec {
            prop_assert!(got.is_err());
        } else {
            let want = spec_source(row.into(), col.into(), grf.into(), size.into(), exec.into(), w.into(), v.into(), h.into());
            prop_assert_eq!(offsets(&got.unwrap()), want);
        }
    }

    #[test]
    fn single_address_matches(ty_index in 0usize..12, exec_index in 0usize..6, w_index in 0usize..5,
                              v_index in 0usize..7, h_index in 0usize..4,
                              addr in 0i64..4096, offset in -512i64..512) {
        let ty = region_types()[ty_index];
        let size = ty.size().unwrap() as u32;
        let exec = EXEC_SIZES[exec_index];
        let w = WIDTHS[w_index].min(exec);
        let (v, h) = (VSTRIDES[v_index], HSTRIDES[h_index]);
        let got = source_elements(addr + offset, size, 32, exec, RegionParams::new(v, w, h)).unwrap();
        // "interpreted identically to the general operands, except that the region
        // origin will be the data element at the address AN(k) + offset"
        let mut want = vec![i64::MIN; exec as usize];
        let mut count = 0usize;
        for i in 0..i64::from(exec / w) {
            for j in 0..i64::from(w) {
                want[count] = addr + offset + (i * i64::from(v) + j * i64::from(h)) * i64::from(size);
                count += 1;
            }
        }
        prop_assert_eq!(offsets(&got), want);
    }

    #[test]
    fn multi_address_matches(ty_index in 0usize..12, exec_index in 0usize..6, w_index in 0usize..5,
                             h_index in 0usize..4, offset in -512i64..512,
                             addrs in proptest::collection::vec(0i64..4096, 32)) {
        let ty = region_types()[ty_index];
        let size = ty.size().unwrap() as u32;
        let exec = EXEC_SIZES[exec_index];
        let (w, h) = (WIDTHS[w_index], HSTRIDES[h_index]);
        let got = indirect_multi_elements(&addrs, offset, size, 32, exec, w, h);
        if w > exec {
            prop_assert!(got.is_err());
        } else {
            let want = spec_multi(&addrs, offset, size.into(), exec.into(), w.into(), h.into());
            prop_assert_eq!(offsets(&got.unwrap()), want);
            let rows = (exec / w) as usize;
            prop_assert!(indirect_multi_elements(&addrs[..rows - 1.min(rows)], offset, size, 32, exec, w, h).is_err() || rows == 0);
        }
    }

    #[test]
    fn grf_span_covers_every_byte(ty_index in 0usize..12, grf_index in 0usize..2, exec_index in 0usize..6,
                                  w_index in 0usize..5, v_index in 0usize..7, h_index in 0usize..4,
                                  row in 0u32..8, col_seed in 0u32..64) {
        let ty = region_types()[ty_index];
        let size = ty.size().unwrap() as u32;
        let grf = GRFS[grf_index];
        let exec = EXEC_SIZES[exec_index];
        // Clamp rather than reject, so every case counts.
        let w = WIDTHS[w_index].min(exec);
        let (v, h) = (VSTRIDES[v_index], HSTRIDES[h_index]);
        let col = col_seed % (grf / size);
        let elements = source_elements(direct_origin(row, col, size, grf), size, grf, exec, RegionParams::new(v, w, h)).unwrap();
        let span = grf_span(&elements, size, grf);
        let mut want: Vec<i64> = elements.iter()
            .flat_map(|e| (e.byte_offset..e.byte_offset + i64::from(size)).map(|b| b / i64::from(grf)))
            .collect();
        want.sort_unstable();
        want.dedup();
        prop_assert_eq!(span.grfs, want);
    }
}
