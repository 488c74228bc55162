//! Property tests: the stable-toolchain counterpart of the cargo-fuzz targets.
//! Any input either fails with a diagnostic or prints back byte for byte;
//! any model gpukit can build prints to text that parses back to it.

use gpukit_amd::datasegment::{parse_data_segment, Radix};
use gpukit_amd::metadata::*;
use proptest::prelude::*;
use std::borrow::Cow;

const SAMPLE: &[u8] = include_bytes!("data/alltypes.clo.meta/myKernel.txt");
const SOURCE: &str = include_str!("data/structkernel2.cl");

/// Generated models own their text (`Cow::Owned`); parsed ones borrow it.
fn name() -> impl Strategy<Value = Cow<'static, str>> {
    "[A-Za-z_][A-Za-z0-9_]{0,12}".prop_map(Cow::Owned)
}

fn free_text() -> impl Strategy<Value = Cow<'static, str>> {
    "[ -~]{0,24}".prop_map(Cow::Owned)
}

fn data_type() -> impl Strategy<Value = DataType> {
    prop::sample::select(DataType::ALL.to_vec())
}

fn entry() -> impl Strategy<Value = Entry<'static>> {
    prop_oneof![
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(major, minor, revision)| {
            Entry::Version {
                major,
                minor,
                revision,
            }
        }),
        name().prop_map(Entry::Device),
        any::<u32>().prop_map(Entry::UniqueId),
        (
            prop::sample::select(vec![
                "uavprivate",
                "hwlocal",
                "hwregion",
                "private",
                "local",
                "hwprivate"
            ]),
            any::<u64>()
        )
            .prop_map(|(k, s)| Entry::Memory(Memory {
                kind: MemoryKind::from_name(k),
                size: Some(s)
            })),
        prop::sample::select(vec!["64bitABI", "datareqd", "compilerwrite"]).prop_map(|k| {
            Entry::Memory(Memory {
                kind: MemoryKind::from_name(k),
                size: None,
            })
        }),
        (
            name(),
            data_type(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>()
        )
            .prop_map(|(name, data_type, count, cb, offset)| {
                Entry::Value(ValueArg {
                    name,
                    data_type,
                    count,
                    cb,
                    offset,
                })
            }),
        (
            name(),
            data_type(),
            any::<u32>(),
            any::<u32>(),
            prop::option::of((any::<bool>(), any::<bool>()))
        )
            .prop_map(
                |(name, data_type, offset, buffer, q)| Entry::Pointer(PointerArg {
                    name,
                    data_type,
                    count: 1,
                    cb: 1,
                    offset,
                    mem_type: MemType::Uav,
                    buffer,
                    align: 4,
                    qualifiers: q.map(|(volatile, restrict)| PointerQualifiers {
                        access: Access::ReadWrite,
                        volatile,
                        restrict
                    }),
                })
            ),
        (name(), any::<u32>(), any::<u32>()).prop_map(|(name, id, offset)| Entry::Image(
            ImageArg {
                name,
                dim: ImageDim::D2Array,
                access: Access::WriteOnly,
                id,
                cb: 1,
                offset
            }
        )),
        (name(), any::<u32>(), any::<u32>()).prop_map(|(name, id, value)| Entry::Sampler(
            SamplerEntry {
                name,
                id,
                location: 1,
                value
            }
        )),
        (name(), any::<u32>()).prop_map(|(name, offset)| Entry::Counter(CounterArg {
            name,
            bits: 32,
            id: 0,
            cb: 1,
            offset
        })),
        // No backslash: the runtime's decoding cannot express a literal `\` before n/r/a/b/f/v.
        (
            any::<u32>(),
            prop::collection::vec(any::<u32>(), 0..4),
            "[ -\\[\\]-~\n\r]{0,24}",
            any::<bool>()
        )
            .prop_map(
                |(id, arg_sizes, f, terminated)| Entry::PrintfFmt(Cow::Owned(PrintfFmt {
                    id,
                    arg_sizes,
                    format: f.into_bytes(),
                    terminated
                }))
            ),
        prop::collection::vec(any::<u32>(), 0..5).prop_map(|ids| Entry::Function(ids.into())),
        prop::collection::vec(any::<u32>(), 0..5).prop_map(|ids| Entry::Intrinsic(ids.into())),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(x, y, z)| Entry::Cws([x, y, z])),
        any::<u32>().prop_map(Entry::Lws),
        Just(Entry::LimitGroupSize),
        any::<u32>().prop_map(Entry::UavId),
        any::<u32>().prop_map(Entry::PrintfId),
        any::<u32>().prop_map(Entry::CbId),
        any::<u32>().prop_map(Entry::PrivateId),
        free_text().prop_map(Entry::Error),
        free_text().prop_map(Entry::Warning),
        (any::<u32>(), free_text())
            .prop_map(|(index, type_name)| Entry::Reflection { index, type_name }),
        (any::<u32>(), name()).prop_map(|(index, name)| Entry::ConstArg { index, name }),
        ("x[a-z]{0,6}", prop::option::of(free_text())).prop_map(|(key, rest)| Entry::Unknown {
            key: Cow::Owned(key),
            rest,
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_fail_cleanly_or_round_trip(data in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse_blocks(&data);
        if let Ok(m) = parse_metadata(&data) {
            prop_assert_eq!(&m.emit(), &data);
            prop_assert_eq!(m.emit_from_entries(), data);
        }
    }

    #[test]
    fn mutated_real_metadata_fails_cleanly_or_round_trips(
        edits in prop::collection::vec((0..SAMPLE.len(), any::<u8>()), 1..6),
        cut in 0..=SAMPLE.len(),
    ) {
        let mut data = SAMPLE.to_vec();
        for (at, b) in edits {
            data[at] = b;
        }
        data.truncate(cut.max(1));
        if let Ok(m) = parse_metadata(&data) {
            prop_assert_eq!(&m.emit(), &data);
            prop_assert_eq!(&m.emit_from_entries(), &data);
            let _ = m.arguments();
        }
    }

    #[test]
    fn generated_models_round_trip(entries in prop::collection::vec(entry(), 0..20), kname in name()) {
        let mut md = Metadata::new(format!("__OpenCL_{kname}_kernel"));
        for e in &entries {
            md.push(e, Eol::Lf).unwrap();
        }
        prop_assert!(md.entries().eq(entries.iter().cloned()));
        let text = md.emit();
        prop_assert_eq!(&md.emit_from_entries(), &text);
        let back = parse_metadata(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&text))))?;
        prop_assert_eq!(back, md);
    }

    #[test]
    fn mutated_opencl_sources_never_panic(
        edits in prop::collection::vec((0..SOURCE.len(), "[ -~\n]"), 0..6),
        cut in 0..=SOURCE.len(),
    ) {
        use gpukit_amd::abi::args::{argument_entries, ArgBuffer, EntryOptions};
        use gpukit_amd::clc::{kernel_signatures, PointerWidth};
        let mut src: Vec<u8> = SOURCE.as_bytes().to_vec();
        for (at, s) in edits {
            src[at] = s.as_bytes()[0];
        }
        src.truncate(cut);
        let text = String::from_utf8_lossy(&src);
        if let Ok(sigs) = kernel_signatures(&text, &["__GPU__"], PointerWidth::Bits32) {
            for s in &sigs {
                let _ = argument_entries(&s.params, EntryOptions { buffer: ArgBuffer::GCN, constant: MemType::Constant });
            }
        }
    }

    #[test]
    fn data_segments_fail_cleanly_or_round_trip(data in "(;#[A-Za-z0-9:]{0,20}\n){0,5}") {
        for radix in [Radix::Hex, Radix::Spec] {
            if let Ok(seg) = parse_data_segment(data.as_bytes(), radix) {
                prop_assert_eq!(seg.emit(), data.as_bytes());
                let _ = seg.materialize();
            }
        }
    }
}
