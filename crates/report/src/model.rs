//! What a report shows, format-neutral.

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::sync::Arc;

/// One page: an input file and its kernels.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Page {
    pub title: String,
    /// Facts about the file as a whole (format, version, producer ...).
    pub facts: Vec<(String, String)>,
    pub kernels: Vec<Kernel>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Kernel {
    pub name: String,
    /// Summary rows (version, platform, SIMD size, instructions, Gen binary ...).
    pub summary: Vec<(String, String)>,
    /// Named tables (inputs with offsets, attributes, arguments ...).
    pub tables: Vec<Table>,
    pub cfg: Option<Graph>,
    pub pressure: Option<Pressure>,
    pub pressure_detail: Option<PressureDetail>,
    /// Bar charts: the instruction mix, or resources in one unit per chart.
    pub bars: Vec<Bars>,
    pub findings: Vec<Finding>,
    pub listing: Listing,
    /// The levels the kernel was compiled through, when its other dumps are known: the
    /// OpenCL source and the Gen code, linked to the listing (the vISA level).
    pub levels: Option<Levels>,
}

/// A kernel's OpenCL source and Gen assembly beside its vISA listing, and how their
/// lines correspond. Line numbers are 0-based positions in each listing.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Levels {
    /// The OpenCL source, when found.
    pub source: Option<Text>,
    /// The Gen assembly (IGC's `.asm`), when found.
    pub gen: Option<Text>,
    /// Per line of the vISA listing: the source line it was compiled from (0-based),
    /// from the vISA `LOC`/`FILE` instructions; `None` where none is recorded.
    pub visa_source: Vec<Option<u32>>,
    /// Per line of the Gen listing: the vISA listing line it was made from (its `$N`).
    pub gen_visa: Vec<Option<u32>>,
    /// What could not be linked, and why (shown above the listings).
    pub notes: Vec<String>,
}

/// A listing held whole: a file's name and its lines, each with its marks.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Text {
    pub name: String,
    pub lines: Vec<String>,
    /// Lines to mark (spill and fill sends), with what they are.
    pub marks: Vec<(u32, Mark)>,
}

/// Why a line of a held listing is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// A store of registers to scratch memory.
    Spill,
    /// A load of spilled registers back.
    Fill,
}

/// One bar chart: a heading for the page and (name, value) bars of one unit.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Bars {
    pub heading: String,
    pub title: String,
    pub items: Vec<(String, usize)>,
}

impl Bars {
    /// Instruction count per mnemonic.
    pub fn mix(items: Vec<(String, usize)>) -> Bars {
        Bars {
            heading: "Instruction mix".into(),
            title: "instructions by mnemonic".into(),
            items,
        }
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Table {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A control-flow graph: nodes are basic blocks.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// Directed edges between node indices.
    pub edges: Vec<(usize, usize)>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Node {
    pub label: String,
    /// A second line, e.g. the instruction count.
    pub detail: String,
    /// The listing line the block starts at (the link target).
    pub line: usize,
}

/// Register pressure along the instruction stream.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pressure {
    /// Bytes live at each instruction (x is the instruction's position).
    pub bytes: Vec<u64>,
    /// Bytes of one GRF on the platform (the axis unit).
    pub grf_bytes: u64,
    /// The register file's size in bytes, drawn as a line.
    pub budget_bytes: Option<u64>,
    /// Instruction positions where blocks start.
    pub block_starts: Vec<usize>,
    /// Where the peak is, and what is live there (name, bytes), largest first.
    pub peak: Option<usize>,
    pub peak_live: Vec<(String, u64)>,
    /// How the numbers were obtained, shown under the chart.
    pub source: String,
    /// The listing line of each instruction position (for links from the chart).
    pub lines: Vec<usize>,
}

/// More series over the positions of [`Pressure`], where known: the page's zoomable
/// chart draws them over the estimate. (Apart from `Pressure`, which other pictures
/// build with only what they draw.)
#[derive(Clone, Debug, Default, Serialize)]
pub struct PressureDetail {
    /// Bytes of the live variables at each instruction: the estimate without
    /// rounding each variable up to whole GRFs.
    pub live_bytes: Vec<u64>,
    /// GRFs the allocator's registers of the live variables cover at each
    /// instruction (empty without an allocation).
    pub physical_grfs: Vec<u32>,
    /// The allocator's register file in GRFs, when known (drawn instead of the
    /// estimate's budget line).
    pub num_grf: Option<u32>,
    /// Instruction positions where the machine code spills or fills registers.
    pub spills: Vec<(usize, Mark)>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Finding {
    /// Listing line of the instruction, if the finding has one.
    pub line: Option<usize>,
    pub rule: String,
    pub message: String,
}

/// One listing line: an instruction, a label or a comment.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Line {
    pub text: String,
    /// Names written and read (for highlighting related lines).
    pub defs: Vec<String>,
    pub uses: Vec<String>,
    pub is_label: bool,
}

/// Produces a kernel's listing lines in order, one at a time, when the page is
/// written: a listing of 50,000 lines held whole (text and name lists per line) would
/// cost more memory than the input it shows.
pub trait ListingSource {
    /// Calls `each` with the index and content of every line in order, until `each`
    /// returns `false`. The `Line` passed may be reused for the next line.
    fn for_each_line(&self, each: &mut dyn FnMut(usize, &Line) -> bool);
}

/// A kernel's listing: lines held (small listings), or produced from a source when
/// the page or its JSON is written. Either way it serialises as an array of lines.
#[derive(Clone, Default)]
pub struct Listing {
    len: usize,
    lines: ListingLines,
}

#[derive(Clone, Default)]
enum ListingLines {
    #[default]
    None,
    Held(Vec<Line>),
    Produced(Arc<dyn ListingSource>),
}

impl Listing {
    /// A listing of `len` lines that `source` produces when asked; `source` must give
    /// exactly `len` lines.
    pub fn produced(len: usize, source: Arc<dyn ListingSource>) -> Listing {
        Listing {
            len,
            lines: ListingLines::Produced(source),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `each` with every line in order until it returns `false`.
    pub fn for_each_line(&self, each: &mut dyn FnMut(usize, &Line) -> bool) {
        match &self.lines {
            ListingLines::None => {}
            ListingLines::Held(lines) => {
                for (i, line) in lines.iter().enumerate() {
                    if !each(i, line) {
                        break;
                    }
                }
            }
            ListingLines::Produced(source) => source.for_each_line(each),
        }
    }
}

impl From<Vec<Line>> for Listing {
    fn from(lines: Vec<Line>) -> Listing {
        Listing {
            len: lines.len(),
            lines: ListingLines::Held(lines),
        }
    }
}

impl std::fmt::Debug for Listing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Listing({} lines)", self.len)
    }
}

impl Serialize for Listing {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len))?;
        let mut failed = None;
        self.for_each_line(&mut |_, line| match seq.serialize_element(line) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
    }
}
