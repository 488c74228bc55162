//! Objects built through the library API, covering every opcode and every sub-opcode
//! layout, write and read back to the same object, byte-identically, in every
//! version whose layout rules differ (3.0 old emask/gather4, 3.3 narrow ids,
//! 3.5 no raw_sends SFID, 3.6, 4.0 wide 3D sampler op, 4.1).

mod common;

use common::Rng;
use gpukit_visa::isa::{FieldKind, Opcode, Type, OPCODES};
use gpukit_visa::*;
use proptest::prelude::*;

fn id(rng: &mut Rng, v: Version) -> u32 {
    if v.wide_ids() {
        rng.next() as u32
    } else {
        rng.next() as u16 as u32
    }
}

fn region(rng: &mut Rng) -> Region {
    Region(rng.next() as u16 & 0x0FFF)
}

fn vector(rng: &mut Rng, v: Version) -> Vector {
    let modifier = Modifier(rng.below(6) as u8);
    let kind = match rng.below(6) {
        0 => VectorKind::General {
            id: id(rng, v),
            row: rng.next() as u8,
            col: rng.next() as u8,
            region: region(rng),
        },
        1 => VectorKind::Address {
            id: rng.next() as u16,
            offset: rng.next() as u8,
            width: rng.below(6) as u8,
        },
        2 => VectorKind::Predicate(Pred(rng.next() as u16)),
        3 => VectorKind::Indirect {
            addr: rng.next() as u16,
            addr_offset: rng.next() as u8,
            offset: rng.next() as i16,
            ty: rng.below(16) as u8,
            region: region(rng),
        },
        4 => {
            let ty = Type(rng.below(16) as u8);
            let bits = if ty.is_wide_immediate() {
                rng.next()
            } else {
                rng.next() as u32 as u64
            };
            VectorKind::Immediate {
                ty: ty.0,
                bits: bits.into(),
            }
        }
        _ => VectorKind::State {
            class: rng.below(2) as u8,
            index: rng.next() as u16,
            offset: rng.next() as u8,
        },
    };
    Vector { modifier, kind }
}

fn raw(rng: &mut Rng, v: Version) -> Raw {
    Raw {
        id: id(rng, v),
        offset: rng.next() as u16,
    }
}

/// An instruction with random values in every field, consistent with the layout's
/// conditions (counts match lists; optional fields follow their controlling bits).
fn instruction(op: Opcode, subop: Option<u8>, v: Version, rng: &mut Rng) -> Instruction {
    let layout = op.layout(subop).unwrap();
    let mut operands: Vec<Operand> = Vec::new();
    for f in layout.fields {
        if !f.cond.version_allows(v) || !f.cond.field_allows(&operands) {
            operands.push(Operand::Absent);
            continue;
        }
        let count = |i: usize, ops: &[Operand]| match ops[i] {
            Operand::Int(n) => n as usize,
            _ => unreachable!(),
        };
        let value = match f.kind {
            FieldKind::Exec => Operand::Exec(ExecCtrl(rng.next() as u8)),
            FieldKind::Pred => Operand::Pred(Pred(rng.next() as u16)),
            FieldKind::Vector => Operand::Vector(vector(rng, v)),
            FieldKind::Raw => Operand::Raw(raw(rng, v)),
            FieldKind::Label => Operand::Label(rng.next() as u16),
            // Small values, so counts stay short and mode bits vary.
            FieldKind::U8 => Operand::Int(rng.below(16) as u32 | (rng.below(2) as u32 * 0xF0)),
            FieldKind::U16 => Operand::Int(rng.next() as u16 as u32),
            FieldKind::U32 | FieldKind::I32 => Operand::Int(rng.next() as u32),
            FieldKind::SamplerOp => Operand::Int(if v.major >= 4 {
                rng.next() as u16 as u32
            } else {
                rng.next() as u8 as u32
            }),
            FieldKind::Aoffimmi => {
                if v.wide_ids() {
                    Operand::Vector(vector(rng, v))
                } else {
                    Operand::Int(rng.next() as u16 as u32)
                }
            }
            FieldKind::WideId => Operand::Int(id(rng, v)),
            FieldKind::RawList(c) => Operand::RawList(Box::new(
                (0..count(c, &operands)).map(|_| raw(rng, v)).collect(),
            )),
            FieldKind::LabelList(c) => Operand::LabelList(Box::new(
                (0..count(c, &operands))
                    .map(|_| rng.next() as u16)
                    .collect(),
            )),
        };
        operands.push(value);
    }
    Instruction {
        opcode: op,
        subop,
        operands,
    }
}

/// Every (opcode, sub-opcode) layout that has a binary form.
fn all_layouts() -> Vec<(Opcode, Option<u8>)> {
    let mut v = Vec::new();
    for info in OPCODES {
        let op = Opcode(info.code);
        match info.shape {
            gpukit_visa::isa::Shape::Fixed(_) => v.push((op, None)),
            gpukit_visa::isa::Shape::Sub(_) => v.extend(op.subops().map(|(s, _)| (op, Some(s)))),
            gpukit_visa::isa::Shape::TextOnly(_) => {}
        }
    }
    v
}

fn object(v: Version, insts: Vec<Instruction>) -> Object {
    let strings: Vec<Vec<u8>> = vec![
        b"k".to_vec(),
        b"V32".to_vec(),
        b"SimdSize".to_vec(),
        b"Note".to_vec(),
    ];
    let body = Routine {
        strings: strings.into_iter().collect(),
        name_index: 0,
        variables: vec![Variable {
            name_index: 1,
            bit_properties: 0x21,
            num_elements: 16,
            alias_index: 0,
            alias_offset: 0,
            alias_scope: 0,
            attributes: vec![],
            wide_type: None,
            aliases_null: false,
        }],
        addresses: vec![AddressVar {
            name_index: 1,
            num_elements: 1,
            attributes: vec![],
        }],
        predicates: vec![PredicateVar {
            name_index: 1,
            num_elements: 16,
            attributes: vec![],
        }],
        labels: vec![Label {
            name_index: 0,
            kind: 1,
            attributes: vec![],
        }],
        samplers: vec![StateVar {
            name_index: 1,
            num_elements: 1,
            attributes: vec![],
        }],
        surfaces: vec![StateVar {
            name_index: 1,
            num_elements: 1,
            attributes: vec![],
        }],
        vmes: vec![],
        interface: Interface::Kernel {
            inputs: vec![Input {
                kind: 0,
                index: 32,
                offset: 32,
                size: 64,
            }],
        },
        attributes: vec![
            Attribute {
                name_index: 2,
                value: AttributeValue::Int {
                    value: 16,
                    width: 1,
                },
            },
            Attribute {
                name_index: 3,
                value: AttributeValue::Raw(vec![1, 2, 3]),
            },
        ],
        code: Code::Instructions(insts.into()),
        build_info: None,
    };
    let mut function_body = body.clone();
    function_body.interface = Interface::Function {
        input_size: 2,
        return_value_size: 1,
    };
    function_body.code = Code::Instructions(InstructionList::new());
    Object {
        version: v,
        kernels: vec![Kernel {
            name: b"k".to_vec(),
            relocations: Relocations::default(),
            gen_binaries: vec![GenBinary {
                platform: 12,
                code: vec![0xAA; 32],
            }],
            body,
        }],
        filescope_vars: vec![],
        functions: vec![Function {
            linkage: 0,
            name: b"f".to_vec(),
            relocations: Relocations::default(),
            body: function_body,
        }],
    }
}

const VERSIONS: [Version; 6] = [
    Version::new(3, 0),
    Version::new(3, 3),
    Version::new(3, 5),
    Version::new(3, 6),
    Version::new(4, 0),
    Version::new(4, 1),
];

fn round_trip(v: Version, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let layouts = all_layouts();
    let insts: Vec<_> = layouts
        .iter()
        .map(|&(op, s)| instruction(op, s, v, &mut rng))
        .collect();
    let obj = object(v, insts);
    let bytes = write(&obj).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back = read(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, &obj);
    prop_assert_eq!(write(&back).unwrap(), bytes);
    Ok(())
}

#[test]
fn every_layout_is_covered() {
    // 125 real opcodes at 4.1; the families contribute one layout per sub-opcode.
    let real = OPCODES
        .iter()
        .filter(|o| !matches!(o.shape, gpukit_visa::isa::Shape::TextOnly(_)))
        .count();
    assert_eq!(real, 125);
    assert!(all_layouts().len() > 180, "{}", all_layouts().len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn every_opcode_round_trips(seed in any::<u64>(), vi in 0..VERSIONS.len()) {
        round_trip(VERSIONS[vi], seed)?;
    }
}

#[test]
fn every_opcode_round_trips_in_every_version() {
    for v in VERSIONS {
        for seed in 1..20u64 {
            round_trip(v, seed * 0x9E37_79B9).unwrap();
        }
    }
}

/// What the reader refuses as beyond the format's limits is not written either.
#[test]
fn the_writer_keeps_the_formats_limits() {
    let v = Version::new(3, 6);
    let base = object(v, Vec::new());
    assert!(write(&base).is_ok());
    let refusal = |obj: &Object| write(obj).err().map(|e| e.to_string());

    let mut kernels = base.clone();
    kernels.kernels = vec![base.kernels[0].clone(); limits::MAX_KERNELS + 1];
    let message = refusal(&kernels).expect("refused");
    assert!(message.contains("num_kernels"), "{message}");

    let mut gens = base.clone();
    gens.kernels[0].gen_binaries = vec![
        GenBinary {
            platform: 12,
            code: vec![0; 16],
        };
        limits::MAX_GEN_BINARIES + 1
    ];
    let message = refusal(&gens).expect("refused");
    assert!(message.contains("num_gen_binaries"), "{message}");

    let mut long = base.clone();
    long.kernels[0].body.strings = [b"k".to_vec(), vec![b'x'; limits::MAX_STRING_LEN + 1]]
        .into_iter()
        .collect();
    let message = refusal(&long).expect("refused");
    assert!(message.contains("string[1]"), "{message}");

    let mut many = base;
    many.kernels[0].body.strings = (0..=limits::MAX_STRINGS)
        .map(|i| format!("s{i}").into_bytes())
        .collect();
    let message = refusal(&many).expect("refused");
    assert!(message.contains("string_count"), "{message}");
}
