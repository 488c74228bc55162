//! Parallel work, ordered results, bounded memory: items are taken from the
//! iterator on the calling thread, worked on by a rayon pool, and handed to the sink
//! in input order. At most `window` items are in flight or waiting for an earlier
//! one, so memory stays flat however long the input is, and the sink (the row
//! writer) runs on the calling thread while the pool works.

use std::collections::BTreeMap;
use std::sync::mpsc;

pub fn ordered<I, T, E>(
    jobs: usize,
    window: usize,
    items: I,
    work: impl Fn(I::Item) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E>
where
    I: Iterator,
    I::Item: Send,
    T: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .thread_name(|i| format!("gpukit-scan-{i}"))
        .build()
        .expect("a thread pool of `jobs` threads");
    let window = window.max(1) as u64;
    let (tx, rx) = mpsc::channel::<(u64, T)>();
    let mut held: BTreeMap<u64, T> = BTreeMap::new();
    let (mut sent, mut done) = (0u64, 0u64);
    let work = &work;
    pool.in_place_scope(|scope| {
        // Hands every result that is next in order to the sink.
        let mut deliver = |held: &mut BTreeMap<u64, T>, done: &mut u64| -> Result<(), E> {
            while let Some(t) = held.remove(done) {
                *done += 1;
                sink(t)?;
            }
            Ok(())
        };
        for item in items {
            while sent - done >= window {
                let (i, t) = rx.recv().expect("a worker result for every item sent");
                held.insert(i, t);
                deliver(&mut held, &mut done)?;
            }
            let tx = tx.clone();
            let index = sent;
            scope.spawn(move |_| {
                // The receiver is gone only when the sink failed; the result is moot.
                let _ = tx.send((index, work(item)));
            });
            sent += 1;
            while let Ok((i, t)) = rx.try_recv() {
                held.insert(i, t);
            }
            deliver(&mut held, &mut done)?;
        }
        while done < sent {
            let (i, t) = rx.recv().expect("a worker result for every item sent");
            held.insert(i, t);
            deliver(&mut held, &mut done)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_in_input_order() {
        let mut got = Vec::new();
        let r: Result<(), ()> = super::ordered(
            3,
            4,
            0..200u64,
            |i| {
                // Uneven work, so that results finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((i * 37) % 500));
                i * 2
            },
            |v| {
                got.push(v);
                Ok(())
            },
        );
        assert!(r.is_ok());
        assert_eq!(got, (0..200).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_failing_sink_stops_the_run() {
        let mut seen = 0;
        let r = super::ordered(
            2,
            4,
            0..1000u32,
            |i| i,
            |v| {
                seen += 1;
                if v == 10 {
                    Err("stop")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("stop"));
        assert_eq!(seen, 11);
    }
}
