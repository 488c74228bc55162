//! Replays the text robustness test's mutations of one file and shows the first whose
//! parsed object prints to text that does not parse.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    let bytes = text.as_bytes();
    let mut rng = Rng((text.len() as u64) | 1);
    const POOL: &[u8] = b" .,:;()<>[]{}=\"\\0123456789xMVPTSA%&!-_\n";
    for i in 0..3000 {
        let mut m = bytes.to_vec();
        let at = (rng.next() % m.len() as u64) as usize;
        m[at] = POOL[(rng.next() % POOL.len() as u64) as usize];
        let Ok(s) = std::str::from_utf8(&m) else {
            continue;
        };
        if let Ok(obj) = gpukit_visa::text::parse_text(s) {
            let printed = gpukit_visa::text::print_text(&obj);
            if let Err(d) = gpukit_visa::text::parse_text(&printed) {
                let ls = s[..at].rfind('\n').map_or(0, |x| x + 1);
                let le = s[at..].find('\n').map_or(s.len(), |x| at + x);
                println!("mutation {i} at {at}: {:?}", &s[ls..le]);
                print!("{}", d.render("printed", &printed));
                return;
            }
        }
    }
    println!("none");
}
