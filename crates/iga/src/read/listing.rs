//! From a JSON tree to the listing model. Both versions share one reader:
//! they differ in a few key names and value shapes (`other`/`implicit`,
//! `Vt`/`v`, `"$2.dst"`/`{"id":2,"func":".dst"}`), which the version decides.
//! Strict mode rejects keys it does not know; lenient mode keeps them in order.

use super::json::{render_path, Document, Member, Node, Seg, Streamed, Tree, Val};
use crate::error::{Error, ErrorKind};
use crate::limits;
use crate::model::*;
use std::collections::HashSet;

pub(crate) struct Cx<'a> {
    pub src: &'a str,
    pub doc: Tree<'a, 'a>,
    pub lenient: bool,
    pub version: Version,
}

/// A JSON path as a chain of stack frames, rendered only when an error needs it.
#[derive(Clone, Copy)]
pub(crate) struct P<'p> {
    parent: Option<&'p P<'p>>,
    /// `None` at the root.
    seg: Option<Seg<'p>>,
}

impl<'p> P<'p> {
    const ROOT: P<'static> = P {
        parent: None,
        seg: None,
    };
    fn key<'q>(&'q self, k: &'q str) -> P<'q> {
        P {
            parent: Some(self),
            seg: Some(Seg::Key(k)),
        }
    }
    fn index(&'p self, i: usize) -> P<'p> {
        P {
            parent: Some(self),
            seg: Some(Seg::Index(i)),
        }
    }
    fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut p = Some(self);
        while let Some(f) = p {
            segs.extend(f.seg);
            p = f.parent;
        }
        segs.reverse();
        render_path(&segs)
    }
}

impl<'a> Cx<'a> {
    /// Boxed, as the tokenizer's: the readers' results stay the size of what they read.
    #[cold]
    fn err(&self, offset: usize, path: &P<'_>, message: String) -> Box<Error> {
        Box::new(Error::at(
            ErrorKind::Schema,
            self.src,
            offset,
            path.render(),
            message,
        ))
    }
    #[cold]
    fn expected(&self, node: &Node<'_>, path: &P<'_>, what: &str) -> Box<Error> {
        self.err(
            node.start,
            path,
            format!("expected {what}, found {}", node.val.type_name()),
        )
    }

    fn int(&self, node: &Node<'_>, path: &P<'_>) -> Result<i64, Box<Error>> {
        match &node.val {
            Val::Num(s) => s
                .parse::<i64>()
                .map_err(|_| self.err(node.start, path, format!("expected an integer, found {s}"))),
            _ => Err(self.expected(node, path, "an integer")),
        }
    }
    fn string(&self, node: &Node<'_>, path: &P<'_>) -> Result<String, Box<Error>> {
        match &node.val {
            Val::Str(s) => Ok(s.to_string()),
            _ => Err(self.expected(node, path, "a string")),
        }
    }
    fn boolean(&self, node: &Node<'_>, path: &P<'_>) -> Result<bool, Box<Error>> {
        match node.val {
            Val::Bool(b) => Ok(b),
            _ => Err(self.expected(node, path, "true or false")),
        }
    }
    fn array(&self, node: &Node<'_>, path: &P<'_>) -> Result<&'a [Node<'a>], Box<Error>> {
        match node.val {
            Val::Arr(items) => Ok(self.doc.items(items)),
            _ => Err(self.expected(node, path, "an array")),
        }
    }
    fn ids(&self, node: &Node<'_>, path: &P<'_>) -> Result<Vec<i64>, Box<Error>> {
        let items = self.array(node, path)?;
        if items.len() > limits::MAX_ID_LIST {
            return Err(Box::new(Error::at(
                ErrorKind::Limit,
                self.src,
                node.start,
                path.render(),
                "id list too long".into(),
            )));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, n)| self.int(n, &path.index(i)))
            .collect()
    }
}

/// The members of one object, each to be taken at most once; what is left
/// over at `finish` is unknown.
struct Obj<'c, 'a, 'p> {
    cx: &'c Cx<'a>,
    start: usize,
    members: &'c [Member<'a>],
    /// Which members were taken: a bit each for objects of up to 64 members,
    /// else `used_many`.
    used: u64,
    used_many: Vec<bool>,
    /// Where the next `take` starts looking: readers ask for keys mostly in
    /// the order iga64 prints them, so the search usually ends at once.
    next: usize,
    path: &'p P<'p>,
    what: &'static str,
}

/// Length and three bytes of a key: keys that differ here differ, so only
/// equal fingerprints need comparing in full.
fn fingerprint(key: &str) -> u32 {
    let b = key.as_bytes();
    match b {
        [] => 0,
        [first, .., last] => {
            (b.len().min(255) as u32)
                | (*first as u32) << 8
                | (*last as u32) << 16
                | (b[b.len() / 2] as u32) << 24
        }
        [only] => 1 | (*only as u32) << 8,
    }
}

/// Key equality for the short keys of IGA objects, inline: a `memcmp` call
/// costs more than comparing a few bytes.
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

impl<'c, 'a, 'p> Obj<'c, 'a, 'p> {
    fn new(
        cx: &'c Cx<'a>,
        node: &'c Node<'a>,
        path: &'p P<'p>,
        what: &'static str,
    ) -> Result<Self, Box<Error>> {
        let Val::Obj(members) = node.val else {
            return Err(cx.expected(node, path, &format!("{what} (an object)")));
        };
        let members = cx.doc.members(members);
        // The first member whose key an earlier one has. IGA objects have a
        // handful of keys: a quadratic scan of fingerprints beats hashing
        // there; big (hostile) objects get the hash set.
        const SMALL: usize = 24;
        let dup = if members.len() <= SMALL {
            let mut prints = [0u32; SMALL];
            let mut dup = None;
            for (i, m) in members.iter().enumerate() {
                let f = fingerprint(&m.key);
                if prints[..i]
                    .iter()
                    .zip(members)
                    .any(|(&g, o)| g == f && same_key(&o.key, &m.key))
                {
                    dup = Some(m);
                    break;
                }
                prints[i] = f;
            }
            dup
        } else {
            let mut seen = HashSet::with_capacity(members.len());
            members.iter().find(|m| !seen.insert(&*m.key))
        };
        if let Some(m) = dup {
            return Err(cx.err(
                m.key_start,
                path,
                format!("duplicate key \"{}\" in {what}", m.key),
            ));
        }
        Ok(Obj {
            cx,
            start: node.start,
            members,
            used: 0,
            used_many: if members.len() > 64 {
                vec![false; members.len()]
            } else {
                Vec::new()
            },
            next: 0,
            path,
            what,
        })
    }

    fn is_used(&self, i: usize) -> bool {
        if self.used_many.is_empty() {
            self.used & (1 << i) != 0
        } else {
            self.used_many[i]
        }
    }

    fn take(&mut self, key: &str) -> Option<&'c Node<'a>> {
        // Keys are unique (checked in `new`), so where the search starts does not
        // change what it finds.
        let (head, tail) = self.members.split_at(self.next.min(self.members.len()));
        let i = match tail.iter().position(|m| same_key(&m.key, key)) {
            Some(i) => head.len() + i,
            None => head.iter().position(|m| same_key(&m.key, key))?,
        };
        if self.used_many.is_empty() {
            self.used |= 1 << i;
        } else {
            self.used_many[i] = true;
        }
        self.next = i + 1;
        Some(&self.members[i].value)
    }
    /// A key whose `null` means absent.
    fn opt(&mut self, key: &str) -> Option<&'c Node<'a>> {
        self.take(key).filter(|n| !matches!(n.val, Val::Null))
    }
    fn req(&mut self, key: &'static str) -> Result<&'c Node<'a>, Box<Error>> {
        self.take(key).ok_or_else(|| {
            self.cx.err(
                self.start,
                self.path,
                format!("{} lacks the key \"{key}\"", self.what),
            )
        })
    }

    fn req_int(&mut self, key: &'static str) -> Result<i64, Box<Error>> {
        let n = self.req(key)?;
        self.cx.int(n, &self.path.key(key))
    }
    fn opt_int(&mut self, key: &'static str) -> Result<Option<i64>, Box<Error>> {
        match self.opt(key) {
            Some(n) => self.cx.int(n, &self.path.key(key)).map(Some),
            None => Ok(None),
        }
    }
    fn req_str(&mut self, key: &'static str) -> Result<String, Box<Error>> {
        let n = self.req(key)?;
        self.cx.string(n, &self.path.key(key))
    }
    fn opt_str(&mut self, key: &'static str) -> Result<Option<String>, Box<Error>> {
        match self.opt(key) {
            Some(n) => self.cx.string(n, &self.path.key(key)).map(Some),
            None => Ok(None),
        }
    }
    fn opt_bool(&mut self, key: &'static str) -> Result<bool, Box<Error>> {
        match self.opt(key) {
            Some(n) => self.cx.boolean(n, &self.path.key(key)),
            None => Ok(false),
        }
    }
    fn ids(&mut self, key: &'static str) -> Result<Vec<i64>, Box<Error>> {
        match self.opt(key) {
            Some(n) => self.cx.ids(n, &self.path.key(key)),
            None => Ok(Vec::new()),
        }
    }
    fn reg(&mut self, key: &'static str) -> Result<Reg, Box<Error>> {
        let n = self.req(key)?;
        read_reg(self.cx, n, &self.path.key(key))
    }

    /// Unknown keys: an error in strict mode, kept in order in lenient mode.
    fn finish(self) -> Result<Extra, Box<Error>> {
        let mut extra = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            if self.is_used(i) {
                continue;
            }
            if !self.cx.lenient {
                let path = self.path.key(&m.key);
                return Err(self.cx.err(
                    m.key_start,
                    &path,
                    format!(
                        "unknown key \"{}\" in {} (lenient mode keeps unknown keys)",
                        m.key, self.what
                    ),
                ));
            }
            extra.push((
                m.key.to_string(),
                self.cx.src[m.value.start..m.value.end].to_string(),
            ));
        }
        Ok(extra)
    }
}

fn read_reg(cx: &Cx<'_>, node: &Node<'_>, path: &P<'_>) -> Result<Reg, Box<Error>> {
    let mut o = Obj::new(cx, node, path, "a register")?;
    let reg = Reg {
        name: o.req_str("rn")?,
        num: o.opt_int("r")?.unwrap_or(0),
        sub: o.opt_int("sr")?.unwrap_or(0),
    };
    if let Some((k, _)) = o.finish()?.first() {
        // Registers are printed inline everywhere; an unknown key here has no place to go back to.
        return Err(cx.err(
            node.start,
            path,
            format!("unknown key \"{k}\" in a register"),
        ));
    }
    Ok(reg)
}

/// One element of the listing's element array, read while the parse goes on
/// (`json::Streamed`); `index` is its place in the array.
pub(crate) fn read_streamed_element(
    src: &str,
    lenient: bool,
    version: Version,
    tree: Tree<'_, '_>,
    node: &Node<'_>,
    index: usize,
) -> Result<Element, Box<Error>> {
    let cx = &Cx {
        src,
        doc: tree,
        lenient,
        version,
    };
    let key = match version {
        Version::V1 => "insts",
        Version::V2 => "elems",
    };
    let list_path = P::ROOT.key(key);
    read_element(cx, node, &list_path.index(index))
}

pub(crate) fn read_listing(
    src: &str,
    lenient: bool,
    doc: &Document<'_>,
    streamed: Option<Streamed>,
) -> Result<Listing, Box<Error>> {
    let root = &doc.root;
    let tree = doc.tree();
    let path = P::ROOT;
    let probe = Cx {
        src,
        doc: tree,
        lenient,
        version: Version::V1,
    };
    let Val::Obj(members) = root.val else {
        return Err(probe.expected(root, &path, "a listing (an object)"));
    };
    let members = tree.members(members);
    let version_node = members
        .iter()
        .find(|m| m.key == "version")
        .map(|m| &m.value);
    let has = |k: &str| members.iter().any(|m| m.key == k);
    let version = match version_node.map(|n| &n.val) {
        Some(Val::Str(s)) if s == "1.0" => Version::V1,
        Some(Val::Str(s)) if s == "2.0" => Version::V2,
        found => {
            let guess = if has("elems") {
                Some(Version::V2)
            } else if has("insts") {
                Some(Version::V1)
            } else {
                None
            };
            match (found, guess) {
                (_, Some(v)) if lenient => v,
                (Some(_), _) => {
                    let n = version_node.unwrap_or(root);
                    return Err(probe.err(
                        n.start,
                        &path.key("version"),
                        "unsupported version: expected \"1.0\" or \"2.0\"".into(),
                    ));
                }
                (None, _) => {
                    return Err(probe.err(
                        root.start,
                        &path,
                        "the listing lacks the key \"version\"".into(),
                    ))
                }
            }
        }
    };
    let cx = &Cx {
        src,
        doc: tree,
        lenient,
        version,
    };
    let mut o = Obj::new(cx, root, &path, "the listing")?;
    o.take("version");
    let platform = o.req_str("platform")?;
    let key = match version {
        Version::V1 => "insts",
        Version::V2 => "elems",
    };
    let list = o.req(key)?;
    let list_path = path.key(key);
    let items = cx.array(list, &list_path)?;
    let streamed = streamed.filter(|s| s.start == list.start && s.version == version);
    let count = streamed.as_ref().map_or(items.len(), |s| s.count);
    if count > limits::MAX_ELEMS {
        return Err(Box::new(Error::at(
            ErrorKind::Limit,
            cx.src,
            list.start,
            list_path.render(),
            "too many listing elements".into(),
        )));
    }
    let elems = match streamed {
        Some(s) => match s.error {
            Some(e) => return Err(Box::new(e)),
            None => s.elems,
        },
        None => {
            let mut elems = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                elems.push(read_element(cx, item, &list_path.index(i))?);
            }
            elems
        }
    };
    let extra = o.finish()?;
    Ok(Listing {
        version,
        platform,
        elems,
        extra,
    })
}

fn read_element(cx: &Cx<'_>, node: &Node<'_>, path: &P<'_>) -> Result<Element, Box<Error>> {
    let mut o = Obj::new(cx, node, path, "a listing element")?;
    let kind_node = o.req("kind")?;
    let kind = cx.string(kind_node, &path.key("kind"))?;
    match kind.as_str() {
        "L" => {
            o.what = "a label";
            let label = match cx.version {
                Version::V1 => {
                    let symbol = o.req_str("value")?;
                    let pc = o.opt_int("pc")?;
                    Label {
                        id: None,
                        pc,
                        symbol,
                        preds: Vec::new(),
                        succs: Vec::new(),
                        extra: Vec::new(),
                    }
                }
                Version::V2 => Label {
                    id: o.opt_int("id")?,
                    pc: o.opt_int("pc")?,
                    symbol: o.req_str("symbol")?,
                    preds: o.ids("preds")?,
                    succs: o.ids("succs")?,
                    extra: Vec::new(),
                },
            };
            let extra = o.finish()?;
            Ok(Element::Label(Box::new(Label { extra, ..label })))
        }
        "I" => {
            o.what = "an instruction";
            read_inst(cx, o, path).map(|i| Element::Inst(Box::new(i)))
        }
        _ => Err(cx.err(
            kind_node.start,
            &path.key("kind"),
            format!("unknown element kind \"{kind}\": expected \"L\" or \"I\""),
        )),
    }
}

fn read_inst(cx: &Cx<'_>, mut o: Obj<'_, '_, '_>, path: &P<'_>) -> Result<Instruction, Box<Error>> {
    let id = o.req_int("id")?;
    let pc = o.opt_int("pc")?;
    let pred = match o.opt("pred") {
        Some(n) => {
            let p = path.key("pred");
            let mut po = Obj::new(cx, n, &p, "a predicate")?;
            let inv = po.opt_bool("inv")?;
            let func = po.opt_str("func")?.unwrap_or_default();
            let defs = po.ids("defs")?;
            Some(Predicate {
                inv,
                func,
                defs,
                extra: po.finish()?,
            })
        }
        None => None,
    };
    let wren = o.opt_bool("wren")?;
    let op = o.req_str("op")?;
    let subop = o.opt_str("subop")?;
    let exec_size = o.req_int("es")?;
    let exec_offset = o.opt_int("eo")?.unwrap_or(0);
    let flag_modifier = match o.opt("fm") {
        Some(n) => {
            let p = path.key("fm");
            let mut fo = Obj::new(cx, n, &p, "a flag modifier")?;
            let cond = fo.req_str("cond")?;
            let uses = fo.ids("uses")?;
            Some(FlagModifier {
                cond,
                uses,
                extra: fo.finish()?,
            })
        }
        None => None,
    };
    let flag_reg = match o.opt("freg") {
        Some(n) => Some(read_reg(cx, n, &path.key("freg"))?),
        None => None,
    };
    let implicit_key = match cx.version {
        Version::V1 => "other",
        Version::V2 => "implicit",
    };
    let implicit = match o.opt(implicit_key) {
        Some(n) => {
            let p = path.key(implicit_key);
            let mut io = Obj::new(cx, n, &p, "implicit operands")?;
            let defs = io.ids("defs")?;
            let uses = io.ids("uses")?;
            Some(Implicit {
                defs,
                uses,
                extra: io.finish()?,
            })
        }
        None => None,
    };
    let dst = match o.opt("dst") {
        Some(n) => Some(read_operand(cx, n, &path.key("dst"))?),
        None => None,
    };
    let srcs_node = o.req("srcs")?;
    let srcs_path = path.key("srcs");
    let items = cx.array(srcs_node, &srcs_path)?;
    if items.len() > limits::MAX_SRCS {
        return Err(Box::new(Error::at(
            ErrorKind::Limit,
            cx.src,
            srcs_node.start,
            srcs_path.render(),
            "too many sources".into(),
        )));
    }
    let mut srcs = Vec::with_capacity(items.len());
    for (i, n) in items.iter().enumerate() {
        srcs.push(read_operand(cx, n, &srcs_path.index(i))?);
    }
    let reg_dist = o.opt_str("regDist")?;
    let sbid = match o.opt("sbid") {
        Some(n) => Some(read_sbid(cx, n, &path.key("sbid"))?),
        None => None,
    };
    let opts = match o.opt("opts") {
        Some(n) => {
            let p = path.key("opts");
            let items = cx.array(n, &p)?;
            items
                .iter()
                .enumerate()
                .map(|(i, n)| cx.string(n, &p.index(i)))
                .collect::<Result<_, _>>()?
        }
        None => Vec::new(),
    };
    let encoding = o.opt_str("encoding")?;
    let live_totals = match o.opt("liveTotals") {
        Some(n) => {
            let p = path.key("liveTotals");
            let mut lo = Obj::new(cx, n, &p, "live totals")?;
            let r = lo.req_int("r")?;
            let acc = lo.req_int("acc")?;
            let s = lo.opt_int("s")?;
            let f = lo.req_int("f")?;
            let a = lo.req_int("a")?;
            Some(LiveTotals {
                r,
                acc,
                s,
                f,
                a,
                extra: lo.finish()?,
            })
        }
        None => None,
    };
    let comment = o.opt_str("comment")?;
    let extra = o.finish()?;
    Ok(Instruction {
        id,
        pc,
        pred: pred.map(Box::new),
        wren,
        op,
        subop,
        exec_size,
        exec_offset,
        flag_modifier: flag_modifier.map(Box::new),
        flag_reg,
        implicit: implicit.map(Box::new),
        dst: dst.map(Box::new),
        srcs,
        reg_dist,
        sbid: sbid.map(Box::new),
        opts,
        encoding,
        live_totals,
        comment,
        extra,
    })
}

fn read_sbid(cx: &Cx<'_>, node: &Node<'_>, path: &P<'_>) -> Result<Sbid, Box<Error>> {
    match &node.val {
        // 1.0: "$2", "$2.src", "$2.dst"
        Val::Str(s) => {
            let bad = || {
                cx.err(
                    node.start,
                    path,
                    format!("expected an SBID like \"$2\" or \"$2.dst\", found \"{s}\""),
                )
            };
            let rest = s.strip_prefix('$').ok_or_else(bad)?;
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let id = rest[..digits].parse::<i64>().map_err(|_| bad())?;
            let func = &rest[digits..];
            if !matches!(func, "" | ".src" | ".dst") || id > 255 {
                return Err(bad());
            }
            Ok(Sbid {
                id,
                func: func.to_string(),
                extra: Vec::new(),
            })
        }
        _ => {
            let mut o = Obj::new(cx, node, path, "an SBID")?;
            let id = o.req_int("id")?;
            if !(0..=255).contains(&id) {
                let n = o
                    .members
                    .iter()
                    .find(|m| m.key == "id")
                    .map_or(node.start, |m| m.value.start);
                return Err(cx.err(
                    n,
                    &path.key("id"),
                    format!("SBID {id} out of range 0..=255"),
                ));
            }
            let func_node = o.req("func")?;
            let func = cx.string(func_node, &path.key("func"))?;
            if !matches!(func.as_str(), "" | ".src" | ".dst") {
                return Err(cx.err(
                    func_node.start,
                    &path.key("func"),
                    format!(
                        "unknown SBID function \"{func}\": expected \"\", \".src\" or \".dst\""
                    ),
                ));
            }
            Ok(Sbid {
                id,
                func,
                extra: o.finish()?,
            })
        }
    }
}

fn read_region(cx: &Cx<'_>, node: &Node<'_>, path: &P<'_>) -> Result<Region, Box<Error>> {
    let mut o = Obj::new(cx, node, path, "a region")?;
    let (kv, kw, kh) = match cx.version {
        Version::V1 => ("Vt", "Wi", "Hz"),
        Version::V2 => ("v", "w", "h"),
    };
    let v = o.opt_int(kv)?;
    let w = o.opt_int(kw)?;
    let h = o.req_int(kh)?;
    if let Some((k, _)) = o.finish()?.first() {
        return Err(cx.err(node.start, path, format!("unknown key \"{k}\" in a region")));
    }
    Ok(Region { v, w, h })
}

fn read_operand(cx: &Cx<'_>, node: &Node<'_>, path: &P<'_>) -> Result<Operand, Box<Error>> {
    let mut o = Obj::new(cx, node, path, "an operand")?;
    let kind_node = o.req("kind")?;
    let kind = cx.string(kind_node, &path.key("kind"))?;
    let region = |o: &mut Obj<'_, '_, '_>| -> Result<Option<Region>, Box<Error>> {
        match o.opt("rgn") {
            Some(n) => read_region(cx, n, &path.key("rgn")).map(Some),
            None => Ok(None),
        }
    };
    let reg_operand = |o: &mut Obj<'_, '_, '_>,
                       reg_key: &'static str|
     -> Result<RegOperand, Box<Error>> {
        let mods = match o.opt("mods") {
            Some(n) => {
                let s = cx.string(n, &path.key("mods"))?;
                SrcMod::parse(&s)
                    .ok_or_else(|| cx.err(n.start, &path.key("mods"), format!("unknown source modifier \"{s}\": expected \"\", \"n\", \"a\" or \"na\"")))?
            }
            None => SrcMod::None,
        };
        let reg = o.reg(reg_key)?;
        let aoff = if reg_key == "areg" {
            o.req_int("aoff")?
        } else {
            0
        };
        let mme = o.opt_str("mme")?;
        let sat = o.opt_bool("sat")?;
        let rgn = region(o)?;
        let ty = o.opt_str("type")?;
        let defs = o.ids("defs")?;
        let uses = o.ids("uses")?;
        Ok(RegOperand {
            mods,
            reg,
            aoff,
            mme,
            sat,
            rgn,
            ty,
            defs,
            uses,
        })
    };
    let kind = match kind.as_str() {
        "RD" => OperandKind::Direct(reg_operand(&mut o, "reg")?),
        "RI" => OperandKind::Indirect(reg_operand(&mut o, "areg")?),
        "RM" => OperandKind::Macro(reg_operand(&mut o, "reg")?),
        "IM" => {
            let value = o.req_str("value")?;
            // 1.0 prints `"rgn":null` on send descriptors; anything else is not IGA's.
            if let Some(n) = o.opt("rgn") {
                return Err(cx.err(
                    n.start,
                    &path.key("rgn"),
                    "an immediate has no region".into(),
                ));
            }
            OperandKind::Immediate {
                value,
                ty: o.opt_str("type")?,
                defs: o.ids("defs")?,
            }
        }
        "LB" => OperandKind::Label {
            target: o.req_str("target")?,
            ty: o.opt_str("type")?,
            defs: o.ids("defs")?,
        },
        "DA" => OperandKind::Data(DataOperand {
            reg: o.reg("reg")?,
            len: o.opt_int("len")?,
            defs: o.ids("defs")?,
            printed_type: None,
        }),
        "AD" => OperandKind::Address(Box::new(match cx.version {
            Version::V1 => read_address_v1(cx, &mut o, path)?,
            Version::V2 => read_address_v2(cx, &mut o, path)?,
        })),
        _ => {
            return Err(cx.err(
                kind_node.start,
                &path.key("kind"),
                format!("unknown operand kind \"{kind}\": expected RD, RI, RM, IM, LB, DA or AD"),
            ))
        }
    };
    let extra = o.finish()?;
    Ok(Operand { kind, extra })
}

fn read_address_v1(
    cx: &Cx<'_>,
    o: &mut Obj<'_, '_, '_>,
    path: &P<'_>,
) -> Result<AddressOperand, Box<Error>> {
    let surface = match o.opt("surf") {
        Some(n) => {
            let p = path.key("surf");
            let mut so = Obj::new(cx, n, &p, "a surface")?;
            let addr_type = so.req_str("type")?;
            let offset = match so.opt("offset") {
                Some(n) => Some(read_surface_offset(cx, n, &p.key("offset"))?),
                None => None,
            };
            let defs = so.ids("defs")?;
            Some(Surface {
                addr_type,
                offset,
                defs,
                extra: so.finish()?,
            })
        }
        None => None,
    };
    let scale = o.opt_int("scale")?.unwrap_or(1);
    let addr_node = o.req("addr")?;
    let ap = path.key("addr");
    let mut ao = Obj::new(cx, addr_node, &ap, "an address payload")?;
    let reg = ao.reg("reg")?;
    let len = ao.req_int("len")?;
    let defs = ao.ids("defs")?;
    let addr_extra = ao.finish()?;
    let offset = AddrOffset::Scalar(o.opt_int("offset")?.unwrap_or(0));
    Ok(AddressOperand {
        reg,
        len,
        defs,
        offset,
        scale,
        surface,
        addr_extra,
        printed_type: None,
    })
}

fn read_address_v2(
    cx: &Cx<'_>,
    o: &mut Obj<'_, '_, '_>,
    path: &P<'_>,
) -> Result<AddressOperand, Box<Error>> {
    let reg = o.reg("areg")?;
    let len = o.req_int("alen")?;
    let defs = o.ids("adefs")?;
    let offset = match o.opt("aoff") {
        None => AddrOffset::Scalar(0),
        Some(n) => match n.val {
            Val::Arr(xy) if xy.len() == 2 => {
                let xy = cx.doc.items(xy);
                let p = path.key("aoff");
                AddrOffset::Block2d(cx.int(&xy[0], &p.index(0))?, cx.int(&xy[1], &p.index(1))?)
            }
            _ => AddrOffset::Scalar(cx.int(n, &path.key("aoff"))?),
        },
    };
    let surface = match o.opt_str("stype")? {
        Some(addr_type) => {
            let offset = match o.opt("soff") {
                Some(n) => Some(read_surface_offset(cx, n, &path.key("soff"))?),
                None => None,
            };
            Some(Surface {
                addr_type,
                offset,
                defs: o.ids("sdefs")?,
                extra: Vec::new(),
            })
        }
        None => None,
    };
    Ok(AddressOperand {
        reg,
        len,
        defs,
        offset,
        scale: 1,
        surface,
        addr_extra: Vec::new(),
        printed_type: None,
    })
}

fn read_surface_offset(
    cx: &Cx<'_>,
    n: &Node<'_>,
    path: &P<'_>,
) -> Result<SurfaceOffset, Box<Error>> {
    match &n.val {
        Val::Obj(_) => read_reg(cx, n, path).map(SurfaceOffset::Reg),
        _ => cx.int(n, path).map(SurfaceOffset::Imm),
    }
}
