//! Parses two .visaasm files and names the first difference between their objects
//! (label and string-pool naming aside).
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let pa = gpukit_visa::text::parse_text(&std::fs::read_to_string(&a[0]).unwrap()).unwrap();
    let pb = gpukit_visa::text::parse_text(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let (ra, rb) = (&pa.kernels[0].body, &pb.kernels[0].body);
    if ra.labels.len() != rb.labels.len() {
        println!("label counts {} vs {}", ra.labels.len(), rb.labels.len());
    }
    for (i, (x, y)) in ra.labels.iter().zip(&rb.labels).enumerate() {
        if x.kind != y.kind {
            println!(
                "label {i} kind {} {} vs {} {}",
                ra.string_lossy(x.name_index),
                x.kind,
                rb.string_lossy(y.name_index),
                y.kind
            );
        }
    }
    let (ia, ib) = (
        ra.code.instructions().unwrap(),
        rb.code.instructions().unwrap(),
    );
    for (i, (x, y)) in ia.iter().zip(ib).enumerate() {
        if x != y
            && !matches!(
                x.opcode,
                gpukit_visa::isa::Opcode::FADDR | gpukit_visa::isa::Opcode::FCALL
            )
        {
            println!("inst {i}: {x:?}\n     vs {y:?}");
            break;
        }
    }
    println!(
        "{} vs {} instructions; attrs {} vs {}",
        ia.len(),
        ib.len(),
        ra.attributes.len(),
        rb.attributes.len()
    );
}
