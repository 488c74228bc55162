# Generates crates/visa/src/isa/rules.rs from the vISA instruction specs.
import re, glob, os
SPEC=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../shared/specs/visa')
ops={}
for p in sorted(glob.glob(SPEC+'/instructions/*.md')):
    t=open(p).read()
    m=re.search(r'## Opcode\s*\n\s*([A-Z0-9_]+)\s*=\s*(0x[0-9a-fA-F]+)',t)
    if not m: continue
    code=int(m.group(2),16)
    fields=[]
    for fm in re.finditer(r'^- \*\*([A-Za-z0-9_]+)\(vec_operand\):\*\*.*?Operand class: *([a-z0-9,]+)',t,re.M):
        name=fm.group(1).lower()
        if name=='borrow': name='carry'
        classes=[c.replace('immediate16','immediate') for c in fm.group(2).split(',')]
        fields.append((name,classes))
    tm=re.search(r'^- \*\*Supported Types:\*\* *(.*)$',t,re.M)
    types=None; gated=[]
    if tm:
        s=tm.group(1).replace(' ','')
        parts=s.split('.{')
        types=[x for x in parts[0].split(',') if x]
        for g in parts[1:]:
            plat,rest=g.split('}',1)
            gated.append((plat,[x for x in rest.split(',') if x]))
    sm=re.search(r'^- \*\*Source Modifier:\*\* *(\w+)',t,re.M)
    srcmod=sm.group(1) if sm else None
    sat=re.search(r'^- \*\*Saturation:\*\* *(.*)$',t,re.M)
    ops.setdefault(code,[]).append((os.path.basename(p)[:-3],fields,types,gated,srcmod,sat.group(1).strip() if sat else None))
# platform availability
plat={}
for line in open(SPEC+'/appendix_instruction_by_platform.md'):
    cells=[c.strip() for c in line.strip().strip('|').split('|')]
    if len(cells)==6 and re.match(r'^[A-Z0-9_]+$',cells[0]) and cells[0] not in ('BDW',):
        plat[cells[0]]=[c=='Y' for c in cells[1:]]
print(len(ops), sum(len(v) for v in ops.values()), len(plat))
for c,v in ops.items():
    if len(v)>1: print('dup',hex(c),[x[0] for x in v])



names={}
for c,v in ops.items():
    for x in v: names[x[0]]=c
CLS={'general':0,'address':1,'predicate':2,'indirect':3,'immediate':5,'state':6}
out=[]
w=out.append
w('//! Facts the instruction table does not carry, taken from the per-instruction specs')
w('//! (`instructions/*.md`: "Operand class", "Supported Types", "Source Modifier",')
w('//! "Saturation") and from `appendix_instruction_by_platform.md`. Generated once from')
w('//! those files; edit the data, not the shape. Opcodes without a row have no such rule.')
w('')
w('use super::Type;')
w('')
w('/// A set of operand classes, bit `n` for class code `n` (0 general, 1 address,')
w('/// 2 predicate, 3 indirect, 5 immediate, 6 state).')
w('#[derive(Clone, Copy, Debug, PartialEq, Eq)]')
w('pub struct ClassSet(pub u8);')
w('')
w('impl ClassSet {')
w('    pub fn contains(self, class_code: u8) -> bool {')
w('        class_code < 8 && self.0 & (1 << class_code) != 0')
w('    }')
w('}')
w('')
w('/// Which source modifiers an opcode admits.')
w('#[derive(Clone, Copy, Debug, PartialEq, Eq)]')
w('pub enum SourceModifiers {')
w('    None,')
w('    /// `-`, `(abs)`, `-(abs)`.')
w('    Arithmetic,')
w('    /// `~` (not).')
w('    Logic,')
w('}')
w('')
w('/// The operand classes a field of an opcode admits (by the table\'s field name).')
w('pub struct OperandClasses {')
w('    pub opcode: u8,')
w('    pub field: &\'static str,')
w('    pub classes: ClassSet,')
w('}')
w('')
w('/// The element types of an opcode\'s vector operands; `gated` adds types from a platform on.')
w('pub struct OperandTypes {')
w('    pub opcode: u8,')
w('    pub types: &\'static [Type],')
w('    pub gated: &\'static [(&\'static str, &\'static [Type])],')
w('}')
w('')
w('/// Modifier rules of an opcode: which source modifiers, and whether `.sat` is allowed')
w('/// (`Some(false)` never, `Some(true)` always; `None` "only when type is float" or unstated).')
w('pub struct Modifiers {')
w('    pub opcode: u8,')
w('    pub source: SourceModifiers,')
w('    pub saturation: Option<bool>,')
w('}')
w('')
def setbits(cl): return sum(1<<CLS[c] for c in cl)
w('pub static OPERAND_CLASSES: &[OperandClasses] = &[')
for c in sorted(ops):
    v=ops[c]
    if len(v)>1: continue
    for name,cl in v[0][1]:
        w(f'    OperandClasses {{ opcode: {c:#04x}, field: "{name}", classes: ClassSet({setbits(cl):#04x}) }}, // {v[0][0]}: {",".join(cl)}')
w('];')
w('')
def tys(l): return '&['+', '.join('Type::'+t for t in l)+']'
w('pub static OPERAND_TYPES: &[OperandTypes] = &[')
for c in sorted(ops):
    v=ops[c]
    if len(v)>1 or v[0][2] is None: continue
    g=', '.join(f'("{p}", {tys(l)})' for p,l in v[0][3])
    w(f'    OperandTypes {{ opcode: {c:#04x}, types: {tys(v[0][2])}, gated: &[{g}] }}, // {v[0][0]}')
w('];')
w('')
w('pub static MODIFIERS: &[Modifiers] = &[')
for c in sorted(ops):
    v=ops[c]
    if len(v)>1: continue
    sm=v[0][4]; sat=v[0][5]
    if sm is None and sat is None: continue
    src={'arithmetic':'Arithmetic','logic':'Logic','false':'None',None:'Arithmetic'}[sm]
    s={'Yes':'Some(true)','No':'Some(false)',None:'None'}.get(sat,'None')
    w(f'    Modifiers {{ opcode: {c:#04x}, source: SourceModifiers::{src}, saturation: {s} }}, // {v[0][0]}')
w('];')
w('')
w('/// Availability by platform: `[SKL, ICLLP, TGLLP]`, per the appendix table (its BDW and')
w('/// BXT columns are left out; it has no column for later platforms).')
w('pub static AVAILABILITY: &[(u8, [bool; 3])] = &[')
rows={}
for n,cols in plat.items():
    if n not in names: print('unmapped',n); continue
    c=names[n]
    r=[cols[1],cols[3],cols[4]]
    if c in rows: r=[a or b for a,b in zip(rows[c],r)]
    rows[c]=r
for c in sorted(rows):
    w(f'    ({c:#04x}, [{", ".join("true" if x else "false" for x in rows[c])}]),')
w('];')
OUT=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../src/isa/rules.rs')
open(OUT,'w').write('\n'.join(out)+'\n')

# Raw operand types ("Must have type ..." on raw_operand lines).
raw_rows = []
for path in sorted(glob.glob(SPEC+'/instructions/*.md')):
    t = open(path).read()
    m = re.search(r'## Opcode\s*\n\s*([A-Z0-9_]+)\s*=\s*(0x[0-9a-fA-F]+)', t)
    if not m:
        continue
    code = int(m.group(2), 16)
    stem = os.path.basename(path)[:-3]
    layout = stem.lower() if code == 0x4e else ''
    for fm in re.finditer(r'^- \*\*([A-Za-z0-9_]+)\(raw_operand\):\*\*.*?(?:Must have type|must have one of) ([A-Z, ]+?)(?: type)?\s*$', t, re.M):
        name = fm.group(1).lower()
        types = [x.strip() for x in fm.group(2).split(',') if x.strip()]
        raw_rows.append((code, layout, name, types, stem))
with open(OUT, 'a') as f:
    f.write('''
/// The element types a raw operand's variable may have ("Must have type ..."), by
/// opcode, layout mnemonic (SVM sub-opcodes; empty for all layouts) and the spec's
/// field name, lower-cased; the verifier maps spec names to layout field names.
pub struct RawTypes {
    pub opcode: u8,
    pub layout: &'static str,
    pub field: &'static str,
    pub types: &'static [Type],
}

pub static RAW_TYPES: &[RawTypes] = &[
''')
    for code, layout, name, types, stem in raw_rows:
        f.write(f'    RawTypes {{ opcode: {code:#04x}, layout: "{layout}", field: "{name}", types: {tys(types)} }}, // {stem}\n')
    f.write('];\n')

# Where IGC's real output (and its own verifier) admits more than the spec's lists;
# kept here so the exceptions are data, stated once.
EXTRA = '''
/// Types IGC uses beyond an opcode's "Supported Types" (its verifier admits them, and
/// IGC 1.0.5353 emits them in the legacy corpus): `sqrt` on DF.
pub static IGC_EXTRA_TYPES: &[(u8, &[Type])] = &[(0x19, &[Type::DF])];

/// Operand classes IGC admits beyond an opcode's "Operand class" list: its text grammar
/// takes `mov` to and from an address register (`mov (M1_NM,1) A0(0)<1> &V`), and
/// `movs` from a state operand, as `5_operands.md` itself allows ("Its usage is
/// restricted to the ADDR_ADD and MOVS instruction").
/// Predefined variables a program may only read (`4_visa_header.md`, R/W column):
/// %thread_x/y, %group_id_x/y/z, %r0, %hw_id, %ce0, %color. %null takes writes
/// (it discards them) and %tsc has a writable pause counter, so neither is listed.
pub static PREDEFINED_READ_ONLY: &[u32] = &[1, 2, 3, 4, 5, 7, 12, 15, 17];

/// Predefined variables that may be aliased ("Can be aliased" column): %r0, %arg,
/// %retval and the two buffer pointers of vISA 4.0.
pub static PREDEFINED_ALIASABLE: &[u32] = &[7, 8, 9, 18, 19];

pub static IGC_EXTRA_CLASSES: &[OperandClasses] = &[
    OperandClasses { opcode: 0x29, field: "dst", classes: ClassSet(0x02) }, // MOV: address
    OperandClasses { opcode: 0x29, field: "src0", classes: ClassSet(0x02) }, // MOV: address
    OperandClasses { opcode: 0x2d, field: "src0", classes: ClassSet(0x40) }, // MOVS: state
];
'''
with open(OUT, 'a') as f:
    f.write(EXTRA)
