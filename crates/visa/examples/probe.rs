fn main() {
    for p in std::env::args().skip(1) {
        let b = std::fs::read(&p).unwrap();
        match gpukit_visa::read_lenient(&b) {
            Ok(o) => {
                for k in &o.kernels {
                    match &k.body.code {
                        gpukit_visa::Code::Instructions(v) => {
                            println!("{p}: v{} ok {} insts", o.version, v.len())
                        }
                        gpukit_visa::Code::Undecoded { error, .. } => {
                            println!("{p}: v{} {}", o.version, error)
                        }
                    }
                }
            }
            Err(e) => println!("{p}: ERR {e}"),
        }
    }
}
