//! Finds where a field is written in RON text, so that validation errors found after parsing
//! (out-of-range values) still point to `file:line:col`.

/// Line and column (1-based, in characters) of the key of field `path` (`law.mu_s`; list
/// elements by index, `contacts[1].law.mu_s`). Falls back to the deepest enclosing field that
/// is present, then to `1:1`.
pub fn locate_field(text: &str, path: &str) -> (usize, usize) {
    let normalised = path.replace('[', ".").replace(']', "");
    let target: Vec<&str> = normalised.split('.').collect();
    let mut best: Option<(usize, (usize, usize))> = None;
    for (key_path, pos) in field_positions(text) {
        let matched = key_path
            .iter()
            .zip(&target)
            .take_while(|(a, b)| a == *b)
            .count();
        if matched == key_path.len() && matched <= target.len() {
            match best {
                Some((m, _)) if m >= matched => {}
                _ => best = Some((matched, pos)),
            }
        }
    }
    best.map_or((1, 1), |(_, pos)| pos)
}

/// Every `key:` in the text with its full dotted path and position.
fn field_positions(text: &str) -> Vec<(Vec<String>, (usize, usize))> {
    struct Frame {
        key_at_open: Option<String>,
        current_key: Option<String>,
        /// Index of the current element when the frame is a list (`[`).
        element: Option<usize>,
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut stack = vec![Frame {
        key_at_open: None,
        current_key: None,
        element: None,
    }];
    let (mut line, mut col) = (1usize, 1usize);
    let mut i = 0;
    let advance = |i: &mut usize, line: &mut usize, col: &mut usize, chars: &[char]| {
        if chars[*i] == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
        *i += 1;
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut i, &mut line, &mut col, &chars);
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            // RON's block comments nest: `/* a /* b */ c */` is one comment.
            let mut depth = 0usize;
            while i < chars.len() {
                let pair = (chars[i], chars.get(i + 1).copied());
                if pair == ('/', Some('*')) || pair == ('*', Some('/')) {
                    depth = if pair.0 == '/' { depth + 1 } else { depth - 1 };
                    advance(&mut i, &mut line, &mut col, &chars);
                    advance(&mut i, &mut line, &mut col, &chars);
                    if depth == 0 {
                        break;
                    }
                } else {
                    advance(&mut i, &mut line, &mut col, &chars);
                }
            }
        } else if c == '"' {
            advance(&mut i, &mut line, &mut col, &chars);
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    advance(&mut i, &mut line, &mut col, &chars);
                }
                if i < chars.len() {
                    advance(&mut i, &mut line, &mut col, &chars);
                }
            }
            if i < chars.len() {
                advance(&mut i, &mut line, &mut col, &chars);
            }
        } else if c == '(' || c == '[' || c == '{' {
            // An element of a list is keyed by its index.
            let key = stack.last().and_then(|f| {
                f.element
                    .map(|k| k.to_string())
                    .or_else(|| f.current_key.clone())
            });
            stack.push(Frame {
                key_at_open: key,
                current_key: None,
                element: (c == '[').then_some(0),
            });
            advance(&mut i, &mut line, &mut col, &chars);
        } else if c == ',' {
            if let Some(f) = stack.last_mut()
                && let Some(k) = f.element.as_mut()
            {
                *k += 1;
            }
            advance(&mut i, &mut line, &mut col, &chars);
        } else if c == ')' || c == ']' || c == '}' {
            if stack.len() > 1 {
                stack.pop();
            }
            advance(&mut i, &mut line, &mut col, &chars);
        } else if c.is_alphabetic() || c == '_' {
            let start = (line, col);
            let mut ident = String::new();
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                ident.push(chars[i]);
                advance(&mut i, &mut line, &mut col, &chars);
            }
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) == Some(&':') {
                let mut path: Vec<String> =
                    stack.iter().filter_map(|f| f.key_at_open.clone()).collect();
                path.push(ident.clone());
                out.push((path, start));
                if let Some(f) = stack.last_mut() {
                    f.current_key = Some(ident);
                }
            }
        } else {
            advance(&mut i, &mut line, &mut col, &chars);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "(\n    name: \"a: (b\",\n    // law: nothing\n    law: LuGre(\n        sigma0: 1e5,\n        f_s: 1.5,\n    ),\n    run: (duration: 10),\n)\n";

    #[test]
    fn finds_nested_keys_past_strings_and_comments() {
        assert_eq!(locate_field(TEXT, "law.f_s"), (6, 9));
        assert_eq!(locate_field(TEXT, "law"), (4, 5));
        assert_eq!(locate_field(TEXT, "run.duration"), (8, 11));
        // Missing field: point at its parent.
        assert_eq!(locate_field(TEXT, "law.v_s"), (4, 5));
        assert_eq!(locate_field(TEXT, "system.mass"), (1, 1));
    }

    #[test]
    fn list_elements_are_found_by_index() {
        let t = "(\n  contacts: [\n    (contact: 1, law: A(mu: 1)),\n    (contact: 2, law: B(mu: 2)),\n  ],\n)";
        assert_eq!(locate_field(t, "contacts[1].law.mu"), (4, 25));
        assert_eq!(locate_field(t, "contacts[0].contact"), (3, 6));
        assert_eq!(locate_field(t, "contacts[1]"), (2, 3));
    }

    #[test]
    fn double_parenthesised_variant_keeps_the_path() {
        let t = "(law: LuGre((sigma0: 1e5)))";
        assert_eq!(locate_field(t, "law.sigma0"), (1, 14));
    }

    /// Regression: the first `*/` closed a nested block comment, so keys inside the rest of
    /// the comment were taken for fields.
    #[test]
    fn nested_block_comments_are_skipped_whole() {
        let t = "(\n /* a /* nested\n */ system: B(mass: 3) */\n system: B(mass: 1e300))";
        assert_eq!(locate_field(t, "system.mass"), (4, 12));
    }
}
