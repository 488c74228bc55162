//! Finds the first truncation of a text whose printed form does not parse.
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    for (len, _) in text.char_indices() {
        if let Ok(obj) = gpukit_visa::text::parse_text(&text[..len]) {
            let printed = gpukit_visa::text::print_text(&obj);
            if let Err(d) = gpukit_visa::text::parse_text(&printed) {
                println!("len {len}: tail {:?}", &text[len.saturating_sub(60)..len]);
                print!("{}", d.render("printed", &printed));
                return;
            }
        }
    }
    println!("none");
}
