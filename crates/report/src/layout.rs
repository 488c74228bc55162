//! Layered graph layout (Sugiyama's method), sized for control-flow graphs of a few
//! blocks to a few thousand:
//!
//! 1. back edges found by a depth-first search from the entry are reversed, so the
//!    graph is acyclic (loops then point upwards when drawn);
//! 2. layers by longest path from the sources;
//! 3. edges spanning several layers get a dummy node per layer crossed, so they route
//!    around blocks instead of through them;
//! 4. crossings reduced by barycentre sweeps, down and up, keeping the best order;
//! 5. x coordinates: nodes pulled toward the mean of their neighbours, then spread so
//!    that none overlap, a few rounds; y by layer.
//!
//! Every step is linear or `n log n` in nodes plus dummies per sweep; the dummy count
//! is bounded (`MAX_DUMMIES`), past which long edges are drawn straight.

/// A node's box size, in drawing units.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

/// Where things go.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Centre of each input node.
    pub centers: Vec<(f64, f64)>,
    /// Each input edge as a polyline from source centre to target centre (through its
    /// dummies), and whether it is a back edge (a loop).
    pub edges: Vec<(Vec<(f64, f64)>, bool)>,
    pub width: f64,
    pub height: f64,
}

const H_GAP: f64 = 24.0;
const V_GAP: f64 = 46.0;
const DUMMY_W: f64 = 8.0;
const SWEEPS: usize = 8;
const MAX_DUMMIES: usize = 100_000;

pub fn layout(sizes: &[Size], edges: &[(usize, usize)]) -> Layout {
    let n = sizes.len();
    if n == 0 {
        return Layout::default();
    }
    let edges: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n)
        .collect();
    let back = back_edges(n, &edges);
    // The acyclic orientation used for layering.
    let dag: Vec<(usize, usize)> = edges
        .iter()
        .zip(&back)
        .filter(|(e, _)| e.0 != e.1)
        .map(|(&(a, b), &is_back)| if is_back { (b, a) } else { (a, b) })
        .collect();
    let layer = longest_path_layers(n, &dag);
    let layers_count = layer.iter().max().map_or(1, |m| m + 1);

    // Nodes: the real ones, then dummies. `chains[e]` lists the nodes edge e passes.
    let mut node_layer = layer.clone();
    let mut node_w: Vec<f64> = sizes.iter().map(|s| s.w).collect();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    let span_total: usize = dag
        .iter()
        .map(|&(a, b)| layer[b].saturating_sub(layer[a]).saturating_sub(1))
        .sum();
    let route = span_total <= MAX_DUMMIES;
    let mut dag_iter = dag.iter();
    for (&(a, b), &is_back) in edges.iter().zip(&back) {
        if a == b {
            chains.push(vec![a, b]);
            continue;
        }
        let &(top, bottom) = dag_iter
            .next()
            .expect("one oriented edge per non-loop edge");
        let mut chain = vec![top];
        if route {
            for l in layer[top] + 1..layer[bottom] {
                node_layer.push(l);
                node_w.push(DUMMY_W);
                chain.push(node_layer.len() - 1);
            }
        }
        chain.push(bottom);
        if is_back {
            chain.reverse();
        }
        chains.push(chain);
    }
    let total = node_layer.len();
    // Adjacent-layer neighbours, both directions, from the chains.
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); total];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); total];
    for chain in &chains {
        for w in chain.windows(2) {
            let (a, b) = if node_layer[w[0]] <= node_layer[w[1]] {
                (w[0], w[1])
            } else {
                (w[1], w[0])
            };
            if a != b && node_layer[b] == node_layer[a] + 1 {
                down[a].push(b);
                up[b].push(a);
            }
        }
    }
    // Initial order: by first appearance (the stream order of blocks).
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_count];
    for (v, &l) in node_layer.iter().enumerate() {
        layers[l].push(v);
    }
    let mut pos = vec![0usize; total];
    let set_pos = |layers: &Vec<Vec<usize>>, pos: &mut Vec<usize>| {
        for layer in layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
    };
    set_pos(&layers, &mut pos);
    let mut best = layers.clone();
    let mut best_crossings = crossings(&layers, &down, &pos);
    for sweep in 0..SWEEPS {
        let downward = sweep % 2 == 0;
        let order: Vec<usize> = if downward {
            (1..layers_count).collect()
        } else {
            (0..layers_count.saturating_sub(1)).rev().collect()
        };
        for l in order {
            let neighbours = if downward { &up } else { &down };
            let mut keyed: Vec<(f64, usize, usize)> = layers[l]
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let ns = &neighbours[v];
                    let key = if ns.is_empty() {
                        i as f64
                    } else {
                        ns.iter().map(|&u| pos[u] as f64).sum::<f64>() / ns.len() as f64
                    };
                    (key, i, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            layers[l] = keyed.into_iter().map(|k| k.2).collect();
            for (i, &v) in layers[l].iter().enumerate() {
                pos[v] = i;
            }
        }
        let c = crossings(&layers, &down, &pos);
        if c < best_crossings {
            best_crossings = c;
            best = layers.clone();
        }
    }
    let layers = best;
    set_pos(&layers, &mut pos);

    // x: start packed left, then pull toward neighbours and spread, a few rounds.
    let mut x = vec![0.0f64; total];
    for layer in &layers {
        let mut at = 0.0;
        for &v in layer {
            x[v] = at + node_w[v] / 2.0;
            at += node_w[v] + H_GAP;
        }
    }
    for round in 0..6 {
        let neighbours_of = |v: usize| -> Vec<usize> {
            if round % 2 == 0 {
                up[v].clone()
            } else {
                down[v].clone()
            }
        };
        for layer in &layers {
            let wanted: Vec<f64> = layer
                .iter()
                .map(|&v| {
                    let ns = neighbours_of(v);
                    if ns.is_empty() {
                        x[v]
                    } else {
                        ns.iter().map(|&u| x[u]).sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            spread(layer, &wanted, &node_w, &mut x);
        }
    }
    let min_x = (0..total)
        .map(|v| x[v] - node_w[v] / 2.0)
        .fold(f64::INFINITY, f64::min);
    for v in x.iter_mut() {
        *v -= min_x - H_GAP;
    }
    let width = (0..total)
        .map(|v| x[v] + node_w[v] / 2.0)
        .fold(0.0, f64::max)
        + H_GAP;
    // y: each layer as tall as its tallest node.
    let mut layer_h = vec![0.0f64; layers_count];
    for v in 0..n {
        layer_h[layer[v]] = layer_h[layer[v]].max(sizes[v].h);
    }
    let mut layer_y = vec![0.0; layers_count];
    let mut at = V_GAP / 2.0;
    for l in 0..layers_count {
        layer_y[l] = at + layer_h[l] / 2.0;
        at += layer_h[l] + V_GAP;
    }
    let centers: Vec<(f64, f64)> = (0..n).map(|v| (x[v], layer_y[layer[v]])).collect();
    let edges_out = chains
        .iter()
        .zip(&back)
        .map(|(chain, &is_back)| {
            let pts = chain
                .iter()
                .map(|&v| (x[v], layer_y[node_layer[v]]))
                .collect();
            (pts, is_back)
        })
        .collect();
    Layout {
        centers,
        edges: edges_out,
        width,
        height: at - V_GAP / 2.0,
    }
}

/// Edges that close a cycle: those reaching a node on the depth-first stack. The
/// search starts at node 0 (the entry) and then at every unvisited node in order.
pub fn back_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, &(a, b)) in edges.iter().enumerate() {
        out[a].push((b, i));
    }
    let mut back = vec![false; edges.len()];
    // 0 new, 1 on stack, 2 done.
    let mut state = vec![0u8; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        // Iterative DFS: (node, next edge index).
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, e)) = out[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Layer of each node: the longest path to it from a source (Kahn's order).
fn longest_path_layers(n: usize, dag: &[(usize, usize)]) -> Vec<usize> {
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in dag {
        out[a].push(b);
        indeg[b] += 1;
    }
    let mut layer = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    ready.reverse();
    while let Some(v) = ready.pop() {
        for &w in &out[v] {
            layer[w] = layer[w].max(layer[v] + 1);
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.push(w);
            }
        }
    }
    layer
}

/// Edge crossings between adjacent layers (counted pairwise per layer; the layers
/// of a CFG are narrow).
fn crossings(layers: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> usize {
    let mut total = 0;
    for layer in layers {
        let mut segs: Vec<(usize, usize)> = Vec::new();
        for &v in layer {
            for &w in &down[v] {
                segs.push((pos[v], pos[w]));
            }
        }
        segs.sort_unstable();
        // Inversions of the targets, by merge counting.
        let mut targets: Vec<usize> = segs.iter().map(|s| s.1).collect();
        total += inversions(&mut targets);
    }
    total
}

fn inversions(v: &mut [usize]) -> usize {
    if v.len() < 2 {
        return 0;
    }
    let mid = v.len() / 2;
    let mut count = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let mut merged = Vec::with_capacity(v.len());
    let (mut i, mut j) = (0, mid);
    while i < mid && j < v.len() {
        if v[i] <= v[j] {
            merged.push(v[i]);
            i += 1;
        } else {
            merged.push(v[j]);
            count += mid - i;
            j += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..]);
    v.copy_from_slice(&merged);
    count
}

/// Places `layer`'s nodes as near to `wanted` as their order and widths allow.
fn spread(layer: &[usize], wanted: &[f64], w: &[f64], x: &mut [f64]) {
    let k = layer.len();
    if k == 0 {
        return;
    }
    // Left to right: no closer than the previous node allows.
    let mut placed: Vec<f64> = Vec::with_capacity(k);
    for i in 0..k {
        let v = layer[i];
        let mut at = wanted[i];
        if i > 0 {
            let u = layer[i - 1];
            at = at.max(placed[i - 1] + (w[u] + w[v]) / 2.0 + H_GAP);
        }
        placed.push(at);
    }
    // Right to left: pull back toward the wanted place where there is room.
    for i in (0..k.saturating_sub(1)).rev() {
        let (v, u) = (layer[i], layer[i + 1]);
        let limit = placed[i + 1] - (w[u] + w[v]) / 2.0 - H_GAP;
        placed[i] = placed[i].min(limit).max(wanted[i].min(limit));
    }
    for (i, &v) in layer.iter().enumerate() {
        x[v] = placed[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(n: usize) -> Vec<Size> {
        vec![Size { w: 80.0, h: 30.0 }; n]
    }

    #[test]
    fn a_loop_points_up_and_nothing_overlaps() {
        // 0 -> 1 -> 2 -> 1 (loop), 2 -> 3
        let l = layout(&sizes(4), &[(0, 1), (1, 2), (2, 1), (2, 3)]);
        assert!(l.edges[2].1, "2 -> 1 is the back edge");
        assert!(l.centers[0].1 < l.centers[1].1 && l.centers[2].1 < l.centers[3].1);
        for a in 0..4 {
            for b in a + 1..4 {
                let (pa, pb) = (l.centers[a], l.centers[b]);
                assert!(
                    pa.1 != pb.1 || (pa.0 - pb.0).abs() >= 80.0,
                    "{a} and {b} overlap"
                );
            }
        }
    }

    #[test]
    fn a_diamond_has_no_crossings_and_long_edges_get_bends() {
        let l = layout(&sizes(5), &[(0, 1), (0, 2), (1, 3), (2, 3), (0, 4), (3, 4)]);
        // 0 -> 4 goes from layer 0 to layer 3: two bends between its ends.
        assert_eq!(l.edges[4].0.len(), 4);
    }

    #[test]
    fn inversions_count() {
        assert_eq!(inversions(&mut [3, 1, 2]), 2);
        assert_eq!(inversions(&mut [1, 2, 3]), 0);
    }

    #[test]
    fn large_graphs_stay_fast_enough_to_lay_out() {
        // A chain of 2,000 blocks with a loop back from each tenth to the start of its ten.
        let n = 2000;
        let mut e: Vec<(usize, usize)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        for i in (9..n).step_by(10) {
            e.push((i, i - 9));
        }
        let l = layout(&sizes(n), &e);
        assert_eq!(l.centers.len(), n);
    }
}
