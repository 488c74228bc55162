//! The IGA assembly text reader on arbitrary bytes (the first byte also picks
//! the platform, so seed files keep their text), and everything downstream of a successful read: Ok or Err, never
//! a panic; the JSON we write from it reads back strictly.
#![no_main]
use gpukit_iga::read::text::parse_text;
use gpukit_iga::{analysis, cfg::Cfg, parse, render::render, write, Mode, Version};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(&pick) = data.first() else { return };
    let Ok(text) = std::str::from_utf8(data) else { return };
    let platform = ["9", "11", "12p1", "12p71", "12p72"][usize::from(pick) % 5];
    let Ok(l) = parse_text(text, Some(platform)) else { return };
    let json = write(&l, Version::V1);
    let again = parse(&json, Mode::Strict).expect("our own JSON parses");
    assert_eq!(write(&again.listing, Version::V1), json);
    let _ = parse_text(&render(&l), Some(platform));
    let _ = analysis::check(&l);
    let _ = analysis::stats(&l);
    let _ = Cfg::build(&l).to_dot(&l);
});
