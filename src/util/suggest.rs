//! "Did you mean …?": the known word nearest to a mistyped one (optimal string alignment
//! distance: insertions, deletions, substitutions and swaps of neighbours, each 1), when it is
//! near enough to be the likely intent.

/// Distance between `a` and `b`, case-insensitive, counted in characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=m {
        d[0][j] = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[n][m]
}

/// The candidate nearest to `word`, when within a third of its length (at least 1, at most 3
/// edits) and unambiguous (no other candidate as near); a candidate that starts with `word` or
/// that `word` starts with counts as near.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    let lower = word.to_lowercase();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    // Only the case differs: that is the word meant (unless it is the word itself).
    if let Some(c) = candidates
        .iter()
        .find(|c| c.eq_ignore_ascii_case(word) && **c != word)
    {
        return Some(c);
    }
    let mut best: Option<(usize, &'a str)> = None;
    let mut tie = false;
    for c in candidates {
        if c.eq_ignore_ascii_case(word) {
            continue;
        }
        let cl = c.to_lowercase();
        let d = if lower.len() >= 3 && (cl.starts_with(&lower) || lower.starts_with(&cl)) {
            1
        } else {
            distance(word, c)
        };
        if d > limit {
            continue;
        }
        match best {
            Some((bd, _)) if d > bd => {}
            Some((bd, _)) if d == bd => tie = true,
            _ => {
                best = Some((d, c));
                tie = false;
            }
        }
    }
    if tie { None } else { best.map(|(_, c)| c) }
}

/// ` (did you mean `X`?)` for the nearest candidate, or nothing.
pub fn hint<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |c| format!(" (did you mean `{c}`?)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits_and_swaps() {
        assert_eq!(distance("stiffness", "stifness"), 1);
        assert_eq!(distance("duration", "durration"), 1);
        assert_eq!(distance("run", "nur"), 2);
        assert_eq!(distance("lugre", "lugre"), 0);
        assert_eq!(distance("mu_s", "mu_k"), 1);
        assert_eq!(distance("ab", "ba"), 1);
    }

    #[test]
    fn the_nearest_unambiguous_word_is_suggested() {
        let keys = ["mass", "stiffness", "damping", "normal_load"];
        assert_eq!(closest("stifness", keys), Some("stiffness"));
        assert_eq!(closest("Stiffnes", keys), Some("stiffness"));
        assert_eq!(closest("xyz", keys), None);
        // mu_x is as near to mu_s as to mu_k: no guess.
        assert_eq!(closest("mu_x", ["mu_s", "mu_k"]), None);
        assert_eq!(
            closest("s1_bench_19_36rp", ["s1_bench_19_36rpm", "coulomb"]),
            Some("s1_bench_19_36rpm")
        );
        assert_eq!(hint("runn", ["run", "rig"]), " (did you mean `run`?)");
        assert_eq!(
            closest("Coulomb", ["coulomb_stick_slip_undamped", "coulomb"]),
            Some("coulomb")
        );
    }
}
