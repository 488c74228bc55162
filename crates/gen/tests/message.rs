//! One test per message class, each built from a descriptor IGC emitted (lines
//! from the corpus's listings), decoded and run against a small register file
//! and memory.

use gpukit_gen::message::{decode, descriptors, execute, Descriptor, Effect, SendContext};
use gpukit_iga::model::{Instruction, OperandKind};
use gpukit_iga::read::text::parse_text;
use gpukit_iga::syntax::gen_of;
use gpukit_visa::interp::{AddressMode, ChannelType, Findings, ImageDesc, Memory, Sampler};

/// A thread's view: registers, memory, SLM and scratch.
struct Rig {
    grf: usize,
    regs: Vec<u8>,
    mem: Memory,
    slm: Vec<u8>,
    scratch: Vec<u8>,
    findings: Findings,
    indirect: Vec<u8>,
}

impl Rig {
    fn new(grf: usize) -> Rig {
        Rig {
            grf,
            regs: vec![0; 128 * grf],
            mem: Memory::default(),
            slm: vec![0; 4096],
            scratch: Vec::new(),
            findings: Findings::default(),
            indirect: Vec::new(),
        }
    }
    /// A buffer of `n` dwords 0, 1, 2, ... (times `scale`), bound at `bti`; its base address.
    fn buffer(&mut self, bti: u32, n: u32, scale: u32) -> u64 {
        let data = (0..n).flat_map(|i| (i * scale).to_le_bytes()).collect();
        let base = self.mem.add(format!("b{bti}"), data);
        self.mem.bind(bti, self.mem.buffers.len() - 1);
        base
    }
    fn dwords(&mut self, reg: usize, vals: &[u32]) {
        for (i, v) in vals.iter().enumerate() {
            let at = reg * self.grf + 4 * i;
            self.regs[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    fn qwords(&mut self, reg: usize, vals: &[u64]) {
        for (i, v) in vals.iter().enumerate() {
            let at = reg * self.grf + 8 * i;
            self.regs[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
    }
    fn dword(&self, reg: usize, i: usize) -> u32 {
        let at = reg * self.grf + 4 * i;
        u32::from_le_bytes(self.regs[at..at + 4].try_into().unwrap())
    }
    fn qword(&self, reg: usize, i: usize) -> u64 {
        let at = reg * self.grf + 8 * i;
        u64::from_le_bytes(self.regs[at..at + 8].try_into().unwrap())
    }
    fn mem_dword(&self, buffer: usize, i: usize) -> u32 {
        let d = self.mem.buffers[buffer].to_bytes();
        u32::from_le_bytes(d[4 * i..4 * i + 4].try_into().unwrap())
    }

    /// Decodes `line` (one instruction of `platform`'s listing text) and runs it
    /// with `channels` enabled; `ex_reg` stands for a register extended descriptor.
    fn send(
        &mut self,
        platform: &str,
        line: &str,
        channels: u32,
        ex_reg: u32,
    ) -> Result<Effect, String> {
        let (inst, msg) = decoded(platform, line, ex_reg)?;
        let reg = |k: Option<&OperandKind>| match k {
            Some(OperandKind::Data(d)) if d.reg.name == "r" => {
                Some((d.reg.num as usize * self.grf) as u32)
            }
            Some(OperandKind::Address(a)) if a.reg.name == "r" => {
                Some((a.reg.num as usize * self.grf) as u32)
            }
            _ => None,
        };
        let dst = reg(inst.dst.as_deref().map(|d| &d.kind));
        let src0 = reg(inst.srcs.first().map(|s| &s.kind)).unwrap();
        let src1 = reg(inst.srcs.get(1).map(|s| &s.kind));
        let mut cx = SendContext {
            regs: &mut self.regs,
            grf_bytes: self.grf as u32,
            src0,
            src1,
            dst,
            exec_size: inst.exec_size as u32,
            channels,
            mem: &mut self.mem,
            slm: &mut self.slm,
            scratch: &mut self.scratch,
            scratch_limit: 1 << 16,
            findings: &mut self.findings,
            indirect: &self.indirect,
            group: [0; 3],
            thread: 0,
            check: None,
        };
        execute(&msg, &mut cx)
    }
}

fn decoded(
    platform: &str,
    line: &str,
    ex_reg: u32,
) -> Result<(Instruction, gpukit_gen::message::Message), String> {
    let listing = parse_text(line, Some(platform)).map_err(|e| e.to_string())?;
    let inst = listing.insts().next().unwrap().clone();
    let value = |d: Descriptor| match d {
        Descriptor::Imm(v) => v,
        Descriptor::Reg(_) => ex_reg,
    };
    let (ex, desc) = descriptors(&inst);
    let msg = decode(&inst, gen_of(&listing.platform), value(desc), value(ex))?;
    Ok((inst, msg))
}

const ALL: u32 = u32::MAX;

#[test]
fn untyped_surface_read_gathers_enabled_channels_only() {
    let mut r = Rig::new(32);
    r.buffer(0, 64, 10);
    let offsets: Vec<u32> = (0..16).map(|c| 4 * (15 - c)).collect();
    r.dwords(8, &offsets);
    r.dwords(10, &[0xAAAA_AAAA; 16]);
    let line = "send (16|M0) r10:w r8 0xC 0x04205E00 // wr:2+0, rd:2; hdc.dc1; untyped surface read with x";
    r.send("9", line, 0x7FFF, 0).unwrap();
    assert_eq!(r.dword(10, 0), 150);
    assert_eq!(r.dword(11, 6), 10);
    // Channel 15 is disabled: its register keeps its value.
    assert_eq!(r.dword(11, 7), 0xAAAA_AAAA);
}

#[test]
fn untyped_surface_write_scatters_four_colors() {
    let mut r = Rig::new(32);
    r.buffer(1, 256, 0);
    let offsets: Vec<u32> = (0..16).map(|c| 16 * c).collect();
    r.dwords(74, &offsets);
    for color in 0..4u32 {
        let vals: Vec<u32> = (0..16).map(|c| 100 * color + c).collect();
        r.dwords(58 + 2 * color as usize, &vals);
    }
    let line = "sends (16|M0) null:w r74 r58 0x20C 0x04025001 // wr:2+8, rd:0; hdc.dc1; untyped surface write with xyzw";
    r.send("9", line, ALL, 0).unwrap();
    // Channel 3's vector at byte 48: x, y, z, w.
    assert_eq!(
        (12..16).map(|i| r.mem_dword(0, i)).collect::<Vec<_>>(),
        [3, 103, 203, 303]
    );
}

#[test]
fn byte_scattered_write_reaches_slm_through_the_local_window() {
    let mut r = Rig::new(32);
    r.dwords(3, &[0x1000_0010]);
    r.dwords(5, &[0xFF80_0000]);
    let line = "(W) sends (1|M0) null:ud r3 r5 0x4A 0x020308FE // wr:1+1, rd:0; hdc.dc0; byte scattering write 32b";
    r.send("9", line, 1, 0).unwrap();
    assert_eq!(r.slm[16..20], 0xFF80_0000u32.to_le_bytes());
}

#[test]
fn byte_gather_zero_extends_into_dwords() {
    let mut r = Rig::new(32);
    r.buffer(2, 16, 0x0101_0101);
    let offsets: Vec<u32> = (0..16).map(|c| 4 * c + 1).collect();
    r.dwords(12, &offsets);
    r.dwords(48, &[0xFFFF_FFFF; 16]);
    let line =
        "send (16|M0) r48:w r12 0xA 0x04210102 // wr:2+0, rd:2; hdc.dc0; byte gathering read 8b";
    r.send("9", line, ALL, 0).unwrap();
    assert_eq!(r.dword(48, 3), 3);
    assert_eq!(r.dword(49, 7), 15);
}

#[test]
fn a64_dword_gather_and_scatter() {
    let mut r = Rig::new(32);
    let base = r.buffer(0, 32, 3);
    let addrs: Vec<u64> = (0..8).map(|c| base + 4 * (c + 8)).collect();
    r.qwords(2, &addrs);
    let line = "send.dc1 (8|M0) r10 r2 null 0x0 0x041401FF {A@1,$1} // wr:2+0, rd:1; a64 dword gathering read";
    r.send("12p71", line, ALL, 0).unwrap();
    assert_eq!(r.dword(10, 5), 39);
    let addrs: Vec<u64> = (0..16).map(|c| base + 4 * c).collect();
    r.qwords(117, &addrs);
    r.dwords(1, &(0..16).map(|c| 1000 + c).collect::<Vec<_>>());
    let line = "sends (16|M0) null:w r117 r1 0x8C 0x080691FF // wr:4+2, rd:0; hdc.dc1; a64 dword scattering write";
    r.send("9", line, ALL, 0).unwrap();
    assert_eq!(r.mem_dword(0, 9), 1009);
    // Qwords, two per address: element k of every channel in its own block.
    let addrs: Vec<u64> = (0..8).map(|c| base + 16 * c).collect();
    r.qwords(2, &addrs);
    let line =
        "send.dc1 (8|M0) r11 r2 null 0x0 0x044406FF {$2} // wr:2+0, rd:4; a64 qword gathering read";
    r.send("12p71", line, ALL, 0).unwrap();
    let q = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    assert_eq!(r.qword(11, 1), q(1004, 1005));
    assert_eq!(r.qword(13, 1), q(1006, 1007));
}

#[test]
fn a64_compare_and_swap_takes_the_expected_value_first() {
    let mut r = Rig::new(32);
    let base = r.buffer(0, 8, 1);
    r.qwords(17, &[base + 4, base + 8]);
    // Channel 0 expects 1 (holds), channel 1 expects 7 (memory holds 2).
    r.dwords(25, &[1, 7]);
    r.dwords(26, &[50, 60]);
    let line = "sends (8|M0) r23:ud r17 r25 0x8C 0x0414AEFF // wr:2+2, rd:1; hdc.dc1; untyped a64 atomic int32 integer compare and swap";
    r.send("9", line, 0b11, 0).unwrap();
    assert_eq!((r.mem_dword(0, 1), r.mem_dword(0, 2)), (50, 2));
    assert_eq!((r.dword(23, 0), r.dword(23, 1)), (1, 2));
}

#[test]
fn a64_atomic_add_of_a_simd1_send_updates_once() {
    let mut r = Rig::new(32);
    let base = r.buffer(0, 4, 0);
    r.qwords(16, &[base + 8; 8]);
    r.dwords(26, &[5; 8]);
    let line = "(W) send.dc1 (1|M0) null r16 r26:1 0x0 0x040487FF {A@1,$6} // wr:2+1, rd:0; untyped a64 atomic int32 integer add";
    r.send("12p71", line, 1, 0).unwrap();
    assert_eq!(r.mem_dword(0, 2), 5);
}

#[test]
fn slm_atomic_compare_and_swap_simd16() {
    let mut r = Rig::new(32);
    r.slm[..4].copy_from_slice(&3u32.to_le_bytes());
    r.dwords(31, &[0x1000_0000; 16]);
    r.dwords(35, &[3; 16]);
    r.dwords(37, &[9; 16]);
    let line = "sends (16|M0) r33:w r31 r35 0x10C 0x0420AEFE // wr:2+4, rd:2; hdc.dc1; untyped atomic int32 integer compare and swap";
    r.send("9", line, 0b101, 0).unwrap();
    // Channel 0 swaps; channel 2 then finds 9 and leaves it.
    assert_eq!(r.slm[..4], 9u32.to_le_bytes());
    assert_eq!((r.dword(33, 0), r.dword(33, 2)), (3, 9));
}

#[test]
fn oword_block_read_takes_a_byte_offset_and_may_read_padding() {
    let mut r = Rig::new(32);
    r.buffer(0, 40, 1);
    r.dwords(76, &[0, 0, 0x80]);
    let line = "(W) send (16|M0) r14:w r76 0xA 0x02484400 // wr:1h+0, rd:4; hdc.dc0; oword aligned block read x8";
    r.send("9", line, ALL, 0).unwrap();
    assert_eq!(r.dword(14, 0), 32);
    assert_eq!(r.dword(14, 7), 39);
    // Past the 160-byte buffer: zeros from the allocation's padding, counted.
    assert_eq!(r.dword(15, 0), 0);
    assert_eq!(r.findings.over_read, 1);
    // Wholly in the padding.
    r.dwords(76, &[0, 0, 0x400]);
    r.send("9", line, ALL, 0).unwrap();
    assert_eq!((r.dword(14, 0), r.findings.over_read), (0, 2));
}

#[test]
fn oword_block_write_takes_an_oword_offset() {
    let mut r = Rig::new(32);
    r.buffer(1, 64, 0);
    r.dwords(80, &[0, 0, 2]);
    r.dwords(28, &(0..16).map(|i| 7 + i).collect::<Vec<_>>());
    let line = "(W) sends (16|M0) null:uw r80 r28 0x8A 0x020A0301 // wr:1h+2, rd:0; hdc.dc0; oword block write x4";
    r.send("9", line, ALL, 0).unwrap();
    assert_eq!(r.mem_dword(0, 8), 7);
    assert_eq!(r.mem_dword(0, 23), 22);
}

#[test]
fn scratch_block_write_then_read_back() {
    let mut r = Rig::new(32);
    r.dwords(2, &(0..16).map(|i| 40 + i).collect::<Vec<_>>());
    let write = "sends (16|M0) null:uw r0 r2 0x8A 0x020F1002 // wr:1h+2, rd:0; hdc.dc0; hword scratch block write x2";
    r.send("9", write, ALL, 0).unwrap();
    let read = "(W) send (16|M0) r8:uw r0 0xA 0x024C2001 // wr:1h+0, rd:4; hdc.dc0; hword scratch block read x4";
    r.send("9", read, ALL, 0).unwrap();
    // The write landed 2 hwords in; the read starts 1 hword in.
    assert_eq!(r.dword(9, 0), 40);
    assert_eq!(r.dword(10, 7), 55);
    assert_eq!(r.dword(8, 0), 0);
}

#[test]
fn a64_block_read_takes_its_address_from_the_header() {
    let mut r = Rig::new(32);
    let base = r.buffer(0, 64, 2);
    r.qwords(25, &[base + 16]);
    let line = "(W) send.dc1 (16|M0) r6 r25 null 0x0 0x024D04FF {A@2,$3} // wr:1h+0, rd:4; a64 unaligned oword block read x8";
    r.send("12p71", line, ALL, 0).unwrap();
    assert_eq!(r.dword(6, 0), 8);
    assert_eq!(r.dword(9, 7), 2 * 35);
}

#[test]
fn lsc_gather_from_a_binding_table_surface() {
    let mut r = Rig::new(32);
    r.buffer(2, 32, 5);
    r.dwords(4, &(0..16).map(|c| 4 * c).collect::<Vec<_>>());
    let raw = "send.ugm (16|M0) r11 r4 null:0 0x2000000 0x64280500 {A@2,$4} // wr:2+0, rd:2; load.ugm.d32.a32.ca.ca.bti[2]";
    r.send("12p71", raw, ALL, 0).unwrap();
    assert_eq!(r.dword(12, 3), 55);
    // The same message in IGC's load/store syntax.
    r.dwords(11, &[0; 16]);
    let ldst = "load.ugm.d32.a32.ca.ca (16|M0) r11:2 bti[2][r4:2] {A@2,$3} // ex_desc:0x2000000; desc:0x64280500";
    r.send("12p71", ldst, ALL, 0).unwrap();
    assert_eq!(r.dword(12, 3), 55);
}

#[test]
fn lsc_a64_store_and_widening_load_on_64_byte_registers() {
    let mut r = Rig::new(64);
    let base = r.buffer(0, 64, 0);
    let addrs: Vec<u64> = (0..32).map(|c| base + 4 * c).collect();
    r.qwords(29, &addrs);
    r.dwords(27, &(0..32).map(|c| 0x1_0000 + c).collect::<Vec<_>>());
    let store = "send.ugm (32|M0) null r29 r27:2 0x0 0x08000584 {I@1,$7} // wr:4+2, rd:0; store.ugm.d32.a64";
    r.send("12p72", store, ALL, 0).unwrap();
    assert_eq!(r.mem_dword(0, 31), 0x1_001F);
    // d16u32: the low half of each dword, zero-extended.
    let addrs: Vec<u64> = (0..32).map(|c| base + 4 * c + 2).collect();
    r.qwords(8, &addrs);
    let load = "send.ugm (32|M0) r12 r8 null:0 0x0 0x08200B80 {A@1,$4} // wr:4+0, rd:2; load.ugm.d16u32.a64";
    r.send("12p72", load, ALL, 0).unwrap();
    assert_eq!((r.dword(12, 0), r.dword(13, 15)), (1, 1));
}

#[test]
fn lsc_transposed_load_fills_consecutive_registers() {
    let mut r = Rig::new(64);
    let base = r.buffer(0, 32, 1);
    r.qwords(4, &[base + 8]);
    let line = "(W) send.ugm (1|M0) r3 r4 null:0 0x0 0x0210D580 {I@3,$1} // wr:1+0, rd:1; load.ugm.d32x16t.a64";
    r.send("12p72", line, 1, 0).unwrap();
    assert_eq!((r.dword(3, 0), r.dword(3, 15)), (2, 17));
}

#[test]
fn lsc_atomic_compare_and_swap_on_qwords() {
    let mut r = Rig::new(64);
    let base = r.buffer(0, 8, 0);
    r.qwords(49, &[base, base + 8]);
    // Expected values (one block of 32 qwords), then new values.
    r.qwords(54, &[0, 1]);
    r.qwords(58, &[77, 88]);
    let line = "send.ugm (32|M0) null r49 r54:8 0x0 0x08000792 {A@1,$10} // wr:4+8, rd:0; atomic_icas.ugm.d64.a64";
    r.send("12p72", line, 0b11, 0).unwrap();
    let q = |i: usize| {
        u64::from_le_bytes(
            r.mem.buffers[0].to_bytes()[8 * i..8 * i + 8]
                .try_into()
                .unwrap(),
        )
    };
    assert_eq!((q(0), q(1)), (77, 0));
}

#[test]
fn lsc_slm_store_and_scratch_through_the_surface_state() {
    let mut r = Rig::new(64);
    r.dwords(
        10,
        &(0..32).map(|c| 0x1000_0000 + 4 * c).collect::<Vec<_>>(),
    );
    r.dwords(12, &(0..32).map(|c| 900 + c).collect::<Vec<_>>());
    let slm = "send.slm (32|M0) null r10 r12:2 0x0 0x04000504 {A@1,$4} // wr:2+2, rd:0; store.slm.d32.a32";
    r.send("12p72", slm, ALL, 0).unwrap();
    assert_eq!(r.slm[124..128], 931u32.to_le_bytes());
    r.dwords(84, &(0..16).map(|c| 64 + 4 * c).collect::<Vec<_>>());
    r.dwords(87, &(0..16).map(|c| 500 + c).collect::<Vec<_>>());
    let ss = "send.ugm (16|M0) null r84 r87:1 a0.2 0x420E0504 {ExBSO,I@4,$5} // wr:1+1, rd:0; store.ugm.d32.a32.wb.wb.ss[a0.2]";
    r.send("12p72", ss, ALL, 0x1234).unwrap();
    assert_eq!(r.scratch[64..68], 500u32.to_le_bytes());
    let ldst = "store.ugm.d32.a32.wb.wb (16|M0) ss[a0.2][r84:1] r87:1 {ExBSO,I@4,$5} // ex_desc:a0.2; desc:0x420E0504";
    r.dwords(87, &[7; 16]);
    r.send("12p72", ldst, ALL, 0x1234).unwrap();
    assert_eq!(r.scratch[124..128], 7u32.to_le_bytes());
}

#[test]
fn gateway_barrier_fence_and_end_of_thread() {
    let mut r = Rig::new(32);
    let barrier = "(W) send (1|M0) null r7 0x3 0x02000004 // wr:1+0, rd:0; gateway; signal barrier";
    assert_eq!(r.send("9", barrier, 1, 0), Ok(Effect::Barrier));
    let fence = "(W) send.ugm (1|M0) r27 r111 null:0 0x0 0x0210651F {$0} // wr:1+0, rd:1; fence invalid flush type scoped to tile";
    assert_eq!(r.send("12p71", fence, 1, 0), Ok(Effect::Done));
    let eot =
        "(W) send.gtwy (8|M0) null r127 null:0 0x0 0x02000010 {EOT} // wr:1+0, rd:0; end of thread";
    assert_eq!(r.send("12p71", eot, ALL, 0), Ok(Effect::EndOfThread));
    let gen9_eot = "send (16|M0) null r112 0x27 0x02000010 // wr:1+0, rd:0; spawner; end of thread";
    assert_eq!(r.send("9", gen9_eot, ALL, 0), Ok(Effect::EndOfThread));
}

#[test]
fn faults_name_the_message_and_only_enabled_channels_fault() {
    let mut r = Rig::new(32);
    r.buffer(0, 4, 0);
    r.dwords(8, &[0, 4, 8000, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let line = "send (16|M0) r10:w r8 0xC 0x04205E00 // wr:2+0, rd:2; hdc.dc1; untyped surface read with x";
    // Channel 2's address lies past the allocation; with it disabled nothing faults.
    r.send("9", line, 0b1011, 0).unwrap();
    let e = r.send("9", line, 0b0111, 0).unwrap_err();
    assert!(
        e.contains("untyped surface read") && e.contains("out-of-bounds"),
        "{e}"
    );
}

#[test]
fn unknown_messages_name_the_shared_function_and_bits() {
    let e = decoded(
        "9",
        "send (16|M0) r13:uw r5 0x8 0x0C784000 // wr:6h+0, rd:7; vme; ?",
        0,
    )
    .unwrap_err();
    assert!(e.contains("sfid vme") && e.contains("0x0c784000"), "{e}");
    let e = decoded(
        "12p1",
        "send.dc1 (8|M0) r5 r3 null 0x0 0x0217C006 // wr:1+0, rd:1; ?",
        0,
    )
    .unwrap_err();
    assert!(
        e.contains("sfid dc1") && e.contains("HDC message type"),
        "{e}"
    );
}

/// A `width` x `height` image of 4-byte texels whose byte i holds i (mod 256), bound at `bti`.
fn image(r: &mut Rig, bti: u32, width: u32, height: u32, channel_type: ChannelType) -> usize {
    let desc = ImageDesc {
        width,
        height,
        depth: 1,
        array: false,
        channels: if channel_type == ChannelType::Float {
            1
        } else {
            4
        },
        channel_type,
    };
    let data = (0..desc.bytes().unwrap()).map(|i| i as u8).collect();
    let i = r.mem.add_image(format!("img{bti}"), desc, data);
    r.mem.bind(bti, i);
    i
}

#[test]
fn media_block_read_and_write_rows_at_a_power_of_two_pitch() {
    let mut r = Rig::new(32);
    image(&mut r, 0, 16, 8, ChannelType::UnsignedInt8);
    // 32 bytes wide, 4 rows, from byte 40 of row 1: the last 8 columns clamp to the edge.
    r.dwords(47, &[40, 1, 0x0003_001F]);
    let read =
        "(W) send.dc1 (8|M0) r9 r47 null 0x0 0x02490000 {@2,$0} // wr:1h+0, rd:4; media block read";
    r.send("12p1", read, ALL, 0).unwrap();
    let byte = |r: &Rig, reg: usize, i: usize| r.regs[reg * 32 + i];
    assert_eq!(byte(&r, 9, 0), 64 + 40);
    assert_eq!(byte(&r, 10, 23), 128 + 63);
    assert_eq!(byte(&r, 10, 31), 128 + 63);
    let img = image(&mut r, 1, 16, 8, ChannelType::UnsignedInt8);
    r.dwords(47, &[0, 2, 0x0001_001F]);
    for i in 0..64 {
        r.regs[31 * 32 + i] = 200 + (i % 50) as u8;
    }
    let write = "(W) send.dc1 (8|M0) null r47 r31 0x100 0x020A8001 {@2,$4} // wr:1h+4, rd:0; media block write";
    r.send("12p1", write, ALL, 0).unwrap();
    let data = r.mem.buffers[img].to_bytes();
    assert_eq!(
        (data[128], data[64 * 3 + 31], data[64 * 3 + 32]),
        (200, 213, 224)
    );
}

#[test]
fn exbso_typed_write_resolves_its_surface_state_offset() {
    // IGC 2.x on DG2: a bindless image's typed write is BTI 252 with the image's
    // surface-state offset (from the payload) as the extended descriptor.
    let mut r = Rig::new(32);
    let img = image(&mut r, 0x1_0080, 8, 4, ChannelType::UnsignedInt8);
    r.dwords(13, &(0..8).collect::<Vec<_>>());
    r.dwords(93, &[2; 8]);
    for ch in 0..4 {
        r.dwords(94 + ch, &[7 + ch as u32; 8]);
    }
    let line = "send.dc1 (8|M0) null r13 r93:5 a0.0 0x020350FC {ExBSO,A@7,$10} // wr:1+5, rd:0; typed surface write with xyzw";
    r.send("12p71", line, ALL, 0x1_0080).unwrap();
    assert_eq!(
        r.mem.buffers[img].to_bytes()[(2 * 8 + 5) * 4..][..4],
        [7, 8, 9, 10]
    );
}

#[test]
fn typed_surface_write_takes_coordinates_then_channels() {
    let mut r = Rig::new(32);
    let img = image(&mut r, 1, 8, 4, ChannelType::UnsignedInt8);
    r.dwords(13, &(0..8).collect::<Vec<_>>());
    r.dwords(93, &[2; 8]);
    for ch in 0..4 {
        r.dwords(
            94 + ch,
            &(0..8).map(|s| 10 * ch as u32 + s).collect::<Vec<_>>(),
        );
    }
    let line = "send.dc1 (8|M0) null r13 r93 0x140 0x02035001 {@7,$4} // wr:1+5, rd:0; typed surface write with xyzw; u";
    r.send("12p1", line, 0b1111_0111, 0).unwrap();
    let data = r.mem.buffers[img].to_bytes();
    // Texel (5, 2): RGBA from slot 5.
    assert_eq!(data[(2 * 8 + 5) * 4..(2 * 8 + 6) * 4], [5, 15, 25, 35]);
    // Slot 3 is disabled: texel (3, 2) keeps its bytes.
    assert_eq!(data[(2 * 8 + 3) * 4], 76);
}

/// A 4 x 2 single-channel float image whose texel (x, y) holds x + 4y, bound at
/// `bti`, and sampler 0 (nearest, clamp to edge, normalized coordinates).
fn float_image(r: &mut Rig, bti: u32) {
    let desc = ImageDesc {
        width: 4,
        height: 2,
        depth: 1,
        array: false,
        channels: 1,
        channel_type: ChannelType::Float,
    };
    let data = (0..8).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let i = r.mem.add_image("img", desc, data);
    r.mem.bind(bti, i);
    r.mem.samplers.push(Sampler {
        index: 0,
        address: AddressMode::ClampToEdge,
        linear: false,
        normalized: true,
    });
}

/// Channel c of 16 samples texel (c % 4, c / 4 % 2), by normalized coordinates.
fn sample_coords(r: &mut Rig, u: usize, v: usize) {
    let us: Vec<u32> = (0..16)
        .map(|c| ((c % 4) as f32 + 0.5) / 4.0)
        .map(f32::to_bits)
        .collect();
    let vs: Vec<u32> = (0..16)
        .map(|c| ((c / 4 % 2) as f32 + 0.5) / 2.0)
        .map(f32::to_bits)
        .collect();
    r.dwords(u, &us);
    r.dwords(v, &vs);
}

#[test]
fn sampler_sample_lz_with_a_header_and_without() {
    let mut r = Rig::new(32);
    float_image(&mut r, 0);
    sample_coords(&mut r, 76, 78);
    let skl = "sends (16|M0) r92:w r62 r76 0x102 0x028D8000 // wr:1h+4, rd:8; sampler; simd16 sample with lod forced to 0 using sampler index 0";
    r.send("9", skl, ALL, 0).unwrap();
    let f = |r: &Rig, reg: usize, i: usize| f32::from_bits(r.dword(reg, i));
    // R of channel 6 (texel (2, 1)) and of channel 13 (texel (1, 1)); alpha is 1.
    assert_eq!((f(&r, 92, 6), f(&r, 93, 5), f(&r, 98, 0)), (6.0, 5.0, 1.0));
    // Xe: no header, u in the first payload, v in the second.
    sample_coords(&mut r, 68, 60);
    let tgl = "send.smpl (16|M0) r72 r68 r60 0x80 0x04858000 {@3,$2} // wr:2+2, rd:8; simd16 sample with lod forced to 0 using sampler index 0";
    r.send("12p1", tgl, 0x00FF, 0).unwrap();
    assert_eq!(f(&r, 72, 7), 7.0);
    // A disabled channel keeps its register.
    assert_eq!(r.dword(73, 0), 0);
}

#[test]
fn sampler_sample_l_reads_v_from_the_second_payload() {
    let mut r = Rig::new(32);
    float_image(&mut r, 0);
    sample_coords(&mut r, 76, 60);
    let line = "send.smpl (16|M0) r80 r76 r60:4 0x0 0x04842000 {$5} // wr:2+4, rd:8; simd16 sample override LOD using sampler index 0";
    r.send("12p71", line, ALL, 0).unwrap();
    assert_eq!(f32::from_bits(r.dword(81, 3)), 3.0);
}

#[test]
fn the_payload_prolog_reads_the_indirect_data() {
    let mut r = Rig::new(32);
    let cross: Vec<u8> = (0..96).collect();
    let per_thread: Vec<u8> = (0..192).map(|i| (i as u8) ^ 0xFF).collect();
    r.indirect = gpukit_gen::message::indirect_data(&cross, &per_thread, 2);
    // Per-thread data of thread 2: 0x60 + 2 * 0xC0, oword block read with a byte offset.
    r.dwords(127, &[0, 0, 0x60 + 2 * 0xC0]);
    let line = "(W) send.dc0 (8|M0) r1 r127 null:0 0x0 0x024844FD {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8";
    r.send("12p71", line, ALL, 0).unwrap();
    assert_eq!(r.regs[32..36], [0xFF, 0xFE, 0xFD, 0xFC]);
    // XeHPC: the cross-thread data through LSC bti[255], transposed, 64-byte registers.
    let mut r = Rig::new(64);
    r.indirect = gpukit_gen::message::indirect_data(&cross, &per_thread, 0);
    r.dwords(127, &[0x40]);
    let line = "send.ugm (1|M0) r4 r127 null:0 0xFF000000 0x6218D500 {I@1,$2} // wr:1+0, rd:1; load.ugm.d32x16t.a32.ca.ca.bti[255]";
    r.send("12p72", line, 1, 0).unwrap();
    assert_eq!(r.regs[4 * 64..4 * 64 + 4], [0x40, 0x41, 0x42, 0x43]);
    // Past the cross-thread data (96 bytes): the per-thread data, then zeros.
    assert_eq!(r.regs[4 * 64 + 32..4 * 64 + 36], [0xFF, 0xFE, 0xFD, 0xFC]);
}

#[test]
fn stateless_bti_255_is_the_threads_private_scratch() {
    let mut r = Rig::new(32);
    r.dwords(81, &(0..16).map(|c| 4 * c + 64).collect::<Vec<_>>());
    r.dwords(83, &(0..16).map(|c| 300 + c).collect::<Vec<_>>());
    let line = "send.dc1 (16|M0) null r81 r83 0x80 0x04025EFF {@4,$1} // wr:2+2, rd:0; untyped surface write with x";
    r.send("12p1", line, ALL, 0).unwrap();
    assert_eq!(r.scratch[64 + 4 * 15..64 + 4 * 16], 315u32.to_le_bytes());
}

#[test]
fn a64_atomics_of_a_wide_send_are_simd16() {
    let mut r = Rig::new(64);
    let base = r.buffer(0, 16, 0);
    r.qwords(16, &(0..16).map(|c| base + 4 * c).collect::<Vec<_>>());
    r.dwords(26, &[3; 16]);
    let line = "send.dc1 (16|M0) null r16 r26:1 0x0 0x040487FF {$6} // wr:2+1, rd:0; untyped a64 atomic int32 integer add";
    r.send("12p72", line, ALL, 0).unwrap();
    assert_eq!((r.mem_dword(0, 0), r.mem_dword(0, 15)), (3, 3));
}

#[test]
fn lsc_bss_reaches_the_surface_its_state_register_names() {
    let mut r = Rig::new(32);
    r.buffer(0, 16, 0);
    r.buffer(5, 16, 9);
    r.dwords(8, &(0..16).map(|c| 4 * c).collect::<Vec<_>>());
    let line = "load.ugm.d32.a32 (16|M0) r10:2 bss[a0.4][r8:2] {$1}";
    r.send("12p71", line, ALL, 5).unwrap();
    assert_eq!(r.dword(10, 3), 27);
}
