//! Neighbour search among delay vectors, shared by Cao, Wolf and the divergence curve.
//!
//! A k-d tree (median split along the coordinate of widest spread, leaves of ≤ 8 points)
//! answers "nearest vector to q that passes a filter" and "all vectors within r of q" in
//! the max or Euclidean norm. Pruning uses `|q_j − split| ≥ best`, a lower bound of both norms.
//! The filter expresses the Theiler window `|i − j| > w` (temporal neighbours are not
//! dynamical neighbours) and any range restriction. Leaf distances stop early once they
//! exceed the best found. For N ≤ 6·10⁴ and d ≤ 10 a query visits a few hundred points
//! instead of N. The tree keeps its own copy of the vectors in tree order (N·d numbers) so a
//! leaf is one contiguous block.

use std::ops::Range;

use super::embedding::{Embedding, Norm};

const LEAF: usize = 8;

/// A neighbour: vector index (in the embedding) and distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    /// Index of the vector in the embedding.
    pub index: usize,
    /// Distance to the query in the index's norm.
    pub dist: f64,
}

/// A k-d tree over a range of vectors of one embedding.
#[derive(Clone, Debug)]
pub struct NeighbourIndex {
    dim: usize,
    norm: Norm,
    points: Vec<f64>,
    ids: Vec<usize>,
    split_dim: Vec<usize>,
    split_val: Vec<f64>,
}

impl NeighbourIndex {
    /// Indexes vectors `range` of `emb` (clipped to the embedding) for distances in `norm`.
    pub fn build(emb: &Embedding, range: Range<usize>, norm: Norm) -> Self {
        let range = range.start.min(emb.len())..range.end.min(emb.len());
        let dim = emb.dim();
        let mut ids: Vec<usize> = range.collect();
        let n = ids.len();
        let mut depth = 0;
        while (n >> depth) > LEAF {
            depth += 1;
        }
        let nodes = 1usize << (depth + 1);
        let mut split_dim = vec![0; nodes];
        let mut split_val = vec![0.0; nodes];
        let mut stack = vec![(0usize, 0usize, n)];
        while let Some((node, lo, hi)) = stack.pop() {
            if hi - lo <= LEAF {
                continue;
            }
            let mut best = (0, -1.0);
            for j in 0..dim {
                let (mut a, mut b) = (f64::INFINITY, f64::NEG_INFINITY);
                for &id in &ids[lo..hi] {
                    let v = emb.coord(id, j);
                    a = a.min(v);
                    b = b.max(v);
                }
                if b - a > best.1 {
                    best = (j, b - a);
                }
            }
            let j = best.0;
            let mid = (lo + hi) / 2;
            ids[lo..hi].select_nth_unstable_by(mid - lo, |&p, &q| {
                emb.coord(p, j).total_cmp(&emb.coord(q, j))
            });
            split_dim[node] = j;
            split_val[node] = emb.coord(ids[mid], j);
            stack.push((2 * node + 1, lo, mid));
            stack.push((2 * node + 2, mid, hi));
        }
        let mut points = vec![0.0; n * dim];
        for (slot, &id) in ids.iter().enumerate() {
            emb.copy_point(id, &mut points[slot * dim..(slot + 1) * dim]);
        }
        Self {
            dim,
            norm,
            points,
            ids,
            split_dim,
            split_val,
        }
    }

    /// Number of indexed vectors.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The norm distances are measured in.
    pub fn norm(&self) -> Norm {
        self.norm
    }

    /// Reduced form of a distance (squared for Euclidean) so comparisons avoid square roots.
    fn reduce(&self, d: f64) -> f64 {
        match self.norm {
            Norm::Max => d.abs(),
            Norm::Euclidean => d * d,
        }
    }

    fn expand(&self, r: f64) -> f64 {
        match self.norm {
            Norm::Max => r,
            Norm::Euclidean => r.sqrt(),
        }
    }

    /// Reduced distance from `q` to the vector in `slot`, abandoned (returns ≥ `limit`) once it
    /// exceeds `limit`.
    #[inline]
    fn reduced_dist(&self, q: &[f64], slot: usize, limit: f64) -> f64 {
        let p = &self.points[slot * self.dim..(slot + 1) * self.dim];
        let mut acc = 0.0_f64;
        for (a, b) in q.iter().zip(p) {
            let d = a - b;
            acc = match self.norm {
                Norm::Max => acc.max(d.abs()),
                Norm::Euclidean => acc + d * d,
            };
            if acc > limit {
                return acc;
            }
        }
        acc
    }

    /// Nearest indexed vector to `q` with distance `> min_dist` among those for which
    /// `accept(index)` holds (e.g. the Theiler window `|index − i| > w`). `min_dist = 0` skips
    /// exact duplicates (a zero distance cannot be a denominator); a negative value admits them.
    pub fn nearest(
        &self,
        q: &[f64],
        min_dist: f64,
        accept: impl Fn(usize) -> bool,
    ) -> Option<Neighbour> {
        let mut best = (f64::INFINITY, usize::MAX);
        let floor = if min_dist >= 0.0 {
            self.reduce(min_dist)
        } else {
            -1.0
        };
        let mut stack = vec![(0usize, 0usize, self.ids.len(), 0.0_f64)];
        while let Some((node, lo, hi, bound)) = stack.pop() {
            if bound >= best.0 {
                continue;
            }
            if hi - lo <= LEAF {
                for slot in lo..hi {
                    let id = self.ids[slot];
                    if !accept(id) {
                        continue;
                    }
                    let r = self.reduced_dist(q, slot, best.0);
                    if r < best.0 && r > floor {
                        best = (r, id);
                    }
                }
                continue;
            }
            let mid = (lo + hi) / 2;
            let diff = q[self.split_dim[node]] - self.split_val[node];
            let far_bound = self.reduce(diff).max(bound);
            let (near, far) = if diff < 0.0 {
                ((2 * node + 1, lo, mid), (2 * node + 2, mid, hi))
            } else {
                ((2 * node + 2, mid, hi), (2 * node + 1, lo, mid))
            };
            stack.push((far.0, far.1, far.2, far_bound));
            stack.push((near.0, near.1, near.2, bound));
        }
        (best.1 != usize::MAX).then(|| Neighbour {
            index: best.1,
            dist: self.expand(best.0),
        })
    }

    /// Calls `found(neighbour)` for every indexed vector within `radius` of `q` (inclusive).
    pub fn within(&self, q: &[f64], radius: f64, mut found: impl FnMut(Neighbour)) {
        let limit = self.reduce(radius);
        let mut stack = vec![(0usize, 0usize, self.ids.len())];
        while let Some((node, lo, hi)) = stack.pop() {
            if hi - lo <= LEAF {
                for slot in lo..hi {
                    let r = self.reduced_dist(q, slot, limit);
                    if r <= limit {
                        found(Neighbour {
                            index: self.ids[slot],
                            dist: self.expand(r),
                        });
                    }
                }
                continue;
            }
            let mid = (lo + hi) / 2;
            let diff = q[self.split_dim[node]] - self.split_val[node];
            if diff <= 0.0 || self.reduce(diff) <= limit {
                stack.push((2 * node + 1, lo, mid));
            }
            if diff >= 0.0 || self.reduce(diff) <= limit {
                stack.push((2 * node + 2, mid, hi));
            }
        }
    }
}

/// Nearest neighbour of vector `i` of `emb` in `index` outside the Theiler window
/// `|j − i| ≤ theiler`, at a distance `> min_dist`.
pub fn nearest_outside_window(
    emb: &Embedding,
    index: &NeighbourIndex,
    i: usize,
    theiler: usize,
    min_dist: f64,
) -> Option<Neighbour> {
    let mut q = vec![0.0; emb.dim()];
    emb.copy_point(i, &mut q);
    index.nearest(&q, min_dist, |j| j.abs_diff(i) > theiler)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;

    fn brute(emb: &Embedding, i: usize, w: usize, norm: Norm, range: Range<usize>) -> (usize, f64) {
        range
            .filter(|&j| j.abs_diff(i) > w)
            .map(|j| (j, emb.distance(i, j, norm)))
            .filter(|p| p.1 > 0.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
    }

    #[test]
    fn nearest_matches_brute_force() {
        let mut g = SplitMix64::new(7);
        let s: Vec<f64> = (0..3000).map(|_| g.normal()).collect();
        for (dim, norm) in [(1, Norm::Max), (3, Norm::Max), (4, Norm::Euclidean)] {
            let emb = Embedding::new(&s, dim, 2).unwrap();
            let range = 5..emb.len() - 7;
            let idx = NeighbourIndex::build(&emb, range.clone(), norm);
            for i in (0..emb.len()).step_by(97) {
                let nb = nearest_outside_window(&emb, &idx, i, 10, 0.0).unwrap();
                let (j, d) = brute(&emb, i, 10, norm, range.clone());
                assert_eq!((nb.index, nb.dist), (j, d), "dim {dim} i {i}");
            }
        }
    }

    #[test]
    fn within_finds_exactly_the_ball() {
        let mut g = SplitMix64::new(11);
        let s: Vec<f64> = (0..2000).map(|_| g.normal()).collect();
        let emb = Embedding::new(&s, 3, 1).unwrap();
        let idx = NeighbourIndex::build(&emb, 0..emb.len(), Norm::Euclidean);
        let mut q = [0.0; 3];
        emb.copy_point(100, &mut q);
        let mut got = Vec::new();
        idx.within(&q, 0.7, |n| got.push(n.index));
        got.sort_unstable();
        let want: Vec<usize> = (0..emb.len())
            .filter(|&j| emb.distance(100, j, Norm::Euclidean) <= 0.7)
            .collect();
        assert_eq!(got, want);
    }
}
