//! The GPU a CL2 binary is for. The outer `e_flags` is an index into a
//! device list that AMD reordered between drivers, so the driver class picks
//! the table (facts from CLRX's tables, AmdCL2Binaries.cpp). From 15.11 the
//! inner ELF's ISA note (major.minor.stepping) confirms the architecture and
//! resolves codes the table cannot (GFX9 parts).

use super::inner::IsaVersion;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Architecture {
    /// GCN 1.1 (gfx7).
    Gcn1_1,
    /// GCN 1.2 (gfx8).
    Gcn1_2,
    /// GCN 1.4 / Vega (gfx9).
    Gcn1_4,
}

impl Architecture {
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::Gcn1_1 => "GCN1.1",
            Architecture::Gcn1_2 => "GCN1.2",
            Architecture::Gcn1_4 => "GCN1.4",
        }
    }

    fn isa_major(self) -> u32 {
        match self {
            Architecture::Gcn1_1 => 7,
            Architecture::Gcn1_2 => 8,
            Architecture::Gcn1_4 => 9,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Device {
    pub name: &'static str,
    pub architecture: Architecture,
}

use Architecture::{Gcn1_1 as G7, Gcn1_2 as G8, Gcn1_4 as G9};

const fn d(name: &'static str, architecture: Architecture) -> Device {
    Device { name, architecture }
}

const SPECTRE: Device = d("Spectre", G7);
const SPOOKY: Device = d("Spooky", G7);
const KALINDI: Device = d("Kalindi", G7);
const MULLINS: Device = d("Mullins", G7);
const BONAIRE: Device = d("Bonaire", G7);
const HAWAII: Device = d("Hawaii", G7);
const ICELAND: Device = d("Iceland", G8);
const TONGA: Device = d("Tonga", G8);
const CARRIZO: Device = d("Carrizo", G8);
const FIJI: Device = d("Fiji", G8);
const DUMMY: Device = d("Dummy", G8);
const HORSE: Device = d("Horse", G8);
const GOOSE: Device = d("Goose", G8);
const STONEY: Device = d("Stoney", G8);
const BAFFIN: Device = d("Baffin", G8);
const ELLESMERE: Device = d("Ellesmere", G8);
const GFX804: Device = d("GFX804", G8);
const GFX900: Device = d("GFX900", G9);
const GFX901: Device = d("GFX901", G9);
const GFX902: Device = d("GFX902", G9);
const GFX903: Device = d("GFX903", G9);
const GFX904: Device = d("GFX904", G9);
const GFX905: Device = d("GFX905", G9);
const GFX906: Device = d("GFX906", G9);
const GFX907: Device = d("GFX907", G9);

/// Codes 1-9 never moved.
const COMMON: [(u32, Device); 8] = [
    (1, SPECTRE),
    (2, SPOOKY),
    (3, KALINDI),
    (4, MULLINS),
    (6, BONAIRE),
    (7, HAWAII),
    (8, ICELAND),
    (9, TONGA),
];

/// (drivers below this version, codes from 10 up).
type Table = (u32, &'static [(u32, Device)]);

const TABLES: [Table; 11] = [
    (191205, &[(15, CARRIZO), (16, FIJI)]),
    (200406, &[(15, DUMMY), (16, CARRIZO), (17, FIJI)]),
    (
        203603,
        &[
            (12, HORSE),
            (13, GOOSE),
            (15, CARRIZO),
            (16, FIJI),
            (17, STONEY),
        ],
    ),
    (
        223600,
        &[
            (13, CARRIZO),
            (14, FIJI),
            (15, STONEY),
            (16, BAFFIN),
            (17, ELLESMERE),
        ],
    ),
    (
        226400,
        &[
            (12, CARRIZO),
            (13, FIJI),
            (14, STONEY),
            (15, BAFFIN),
            (16, ELLESMERE),
            (17, GFX900),
            (18, GFX804),
        ],
    ),
    (
        234800,
        &[
            (13, CARRIZO),
            (14, FIJI),
            (15, STONEY),
            (16, BAFFIN),
            (17, ELLESMERE),
            (18, GFX804),
            (19, GFX900),
        ],
    ),
    (
        244200,
        &[
            (14, CARRIZO),
            (15, FIJI),
            (16, STONEY),
            (17, BAFFIN),
            (18, ELLESMERE),
            (19, GFX804),
            (20, GFX900),
            (21, GFX901),
        ],
    ),
    (
        248200,
        &[
            (12, CARRIZO),
            (13, FIJI),
            (14, STONEY),
            (15, BAFFIN),
            (16, ELLESMERE),
            (17, GFX900),
            (18, GFX804),
            (19, GFX901),
        ],
    ),
    (
        252700,
        &[
            (12, CARRIZO),
            (13, FIJI),
            (14, STONEY),
            (16, BAFFIN),
            (18, ELLESMERE),
            (19, GFX900),
            (20, GFX804),
            (21, GFX901),
        ],
    ),
    (
        258000,
        &[
            (12, CARRIZO),
            (13, FIJI),
            (14, STONEY),
            (16, BAFFIN),
            (18, ELLESMERE),
            (20, GFX900),
            (21, GFX804),
            (23, GFX901),
            (24, GFX902),
            (25, GFX903),
            (26, GFX904),
            (27, GFX905),
        ],
    ),
    (
        u32::MAX,
        &[
            (12, CARRIZO),
            (13, FIJI),
            (14, STONEY),
            (16, BAFFIN),
            (18, ELLESMERE),
            (20, GFX900),
            (21, GFX804),
            (23, GFX901),
            (24, GFX902),
            (25, GFX903),
            (26, GFX904),
            (27, GFX905),
            (28, GFX906),
            (29, GFX907),
        ],
    ),
];

/// GFX9 parts by ISA stepping (major 9, minor 0).
const GFX9_BY_STEPPING: [Device; 8] = [
    GFX900, GFX901, GFX902, GFX903, GFX904, GFX905, GFX906, GFX907,
];

/// The device for `e_flags` under driver `driver` (CLRX's version number).
pub fn from_flags(flags: u32, driver: u32) -> Option<Device> {
    let (_, rest) = TABLES
        .iter()
        .find(|(below, _)| driver < *below)
        .unwrap_or(&TABLES[TABLES.len() - 1]);
    COMMON
        .iter()
        .chain(rest.iter())
        .find(|(code, _)| *code == flags)
        .map(|(_, dev)| *dev)
}

/// The device from `e_flags`, checked and completed by the ISA note: a
/// table entry whose architecture disagrees with the note's major version
/// gives way to the note (the tables cannot tell GFX9 parts from GFX8 ones).
pub fn detect(flags: u32, driver: u32, isa: Option<IsaVersion>) -> Option<Device> {
    let by_table = from_flags(flags, driver);
    let Some(isa) = isa else {
        return by_table;
    };
    if let Some(dev) = by_table {
        if dev.architecture.isa_major() == isa.major {
            return Some(dev);
        }
    }
    Some(match isa.major {
        7 => SPECTRE,
        8 => ICELAND,
        9 if isa.minor == 0 => *GFX9_BY_STEPPING
            .get(isa.stepping as usize)
            .unwrap_or(&GFX900),
        9 => GFX900,
        _ => return by_table,
    })
}
