//! Hand-built sample sequences with the events they must give.

use super::*;

/// One sample: `pattern` marks slipping blocks with `#`; their rate is `rate`, others 0.
fn step(b: &mut CatalogueBuilder, t: f64, pattern: &str, s: &[f64], rate: f64, f: f64) {
    let slip: Vec<bool> = pattern.chars().map(|c| c == '#').collect();
    let rates: Vec<f64> = slip.iter().map(|&x| if x { rate } else { 0.0 }).collect();
    b.push(t, &slip, s, &rates, &vec![f; slip.len()]).unwrap();
}

#[test]
fn single_block_over_three_samples() {
    let mut b = CatalogueBuilder::new(3, false);
    step(&mut b, 0.0, "...", &[0.0, 0.0, 0.0], 0.0, 10.0);
    step(&mut b, 1.0, ".#.", &[0.0, 0.25, 0.0], 2.0, 9.0);
    step(&mut b, 2.0, ".#.", &[0.0, 0.75, 0.0], 4.0, 8.0);
    step(&mut b, 3.0, ".#.", &[0.0, 1.0, 0.0], 1.0, 7.0);
    assert!(b.take_finished().is_empty());
    step(&mut b, 4.0, "...", &[0.0, 1.0, 0.0], 0.0, 6.5);
    let ev = b.finish();
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!((e.start_s, e.end_s, e.duration_s()), (0.0, 4.0, 4.0));
    assert_eq!(
        (e.epicentre, e.blocks, e.first_block, e.last_block),
        (1, 1, 1, 1)
    );
    assert_eq!(
        (e.potency_m, e.magnitude, e.peak_slip_rate_mps),
        (1.0, 0.0, 4.0)
    );
    assert_eq!((e.force_drop_n, e.truncated), (3.5, false));
}

#[test]
fn two_clusters_at_once_then_merge() {
    // Apart: blocks 1 and 4 slip at t = 1 and stop: two events.
    let mut b = CatalogueBuilder::new(6, false);
    step(&mut b, 0.0, "......", &[0.0; 6], 0.0, 5.0);
    step(
        &mut b,
        1.0,
        ".#..#.",
        &[0.0, 1.0, 0.0, 0.0, -2.0, 0.0],
        1.0,
        4.0,
    );
    assert_eq!(b.open_events(), 2);
    step(
        &mut b,
        2.0,
        "......",
        &[0.0, 1.0, 0.0, 0.0, -2.0, 0.0],
        0.0,
        3.0,
    );
    let ev = b.finish();
    assert_eq!(ev.len(), 2);
    assert_eq!(
        (ev[0].epicentre, ev[0].potency_m, ev[0].force_drop_n),
        (1, 1.0, 2.0)
    );
    assert_eq!(
        (ev[1].epicentre, ev[1].potency_m, ev[1].magnitude),
        (4, 2.0, 2f64.log10())
    );

    // Block 5 starts at t = 1, block 1 at t = 2; they grow and join at t = 4.
    let mut b = CatalogueBuilder::new(8, false);
    step(&mut b, 0.0, "........", &[0.0; 8], 0.0, 20.0);
    let s = [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0];
    step(&mut b, 1.0, ".....#..", &s, 1.0, 19.0);
    let s = [0.0, 0.25, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    step(&mut b, 2.0, ".#...#..", &s, 1.0, 18.0);
    assert_eq!(b.open_events(), 2);
    let s = [0.0, 0.5, 0.125, 0.0, 0.125, 1.5, 0.0, 0.0];
    step(&mut b, 3.0, ".##.##..", &s, 2.0, 17.0);
    let s = [0.0, 0.5, 0.125, 0.25, 0.125, 1.5, 0.0, 0.0];
    step(&mut b, 4.0, ".#####..", &s, 3.0, 16.0);
    assert_eq!(b.open_events(), 1);
    step(&mut b, 5.0, "........", &s, 0.0, 12.0);
    let ev = b.take_finished();
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!((e.start_s, e.end_s, e.epicentre), (0.0, 5.0, 5));
    assert_eq!((e.blocks, e.first_block, e.last_block), (5, 1, 5));
    assert_eq!(e.potency_m, 0.5 + 0.125 + 0.25 + 0.125 + 1.5);
    // Every block carries the sample's force: blocks 5, 1, 2, 4, 3 drop from 20, 19, 18,
    // 18, 17 (the sample before each began) to 12.
    assert_eq!((e.peak_slip_rate_mps, e.force_drop_n), (3.0, 32.0));
    assert!(b.finish().is_empty());
}

#[test]
fn moving_event() {
    let mut b = CatalogueBuilder::new(8, false);
    step(&mut b, 0.0, "........", &[0.0; 8], 0.0, 10.0);
    let s = [0.0, 0.0, 0.0, 0.1, 0.2, 0.0, 0.0, 0.0];
    step(&mut b, 1.0, "...##...", &s, 1.0, 9.0);
    let s = [0.0, 0.0, 0.0, 0.1, 0.4, 0.3, 0.0, 0.0];
    step(&mut b, 2.0, "....##..", &s, 1.0, 8.0);
    let s = [0.0, 0.0, 0.0, 0.1, 0.4, 0.5, 0.25, 0.0];
    step(&mut b, 3.0, ".....##.", &s, 1.0, 7.0);
    // Block 4 slips again (its two intervals add up); block 5 has stopped.
    let s = [0.0, 0.0, 0.0, 0.1, 0.5, 0.5, 0.5, 0.0];
    step(&mut b, 4.0, "....#.#.", &s, 1.0, 7.0);
    step(&mut b, 5.0, "........", &s, 0.0, 6.0);
    let ev = b.finish();
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!(
        (e.epicentre, e.blocks, e.first_block, e.last_block),
        (3, 4, 3, 6)
    );
    assert_eq!(e.potency_m, 0.1 + 0.5 + 0.5 + 0.5);
    // Drops per block: 3: 10 → 8; 4: 10 (before its first interval) → 6 (after its last);
    // 5: 9 → 7; 6: 8 → 6.
    assert_eq!((e.start_s, e.end_s, e.force_drop_n), (0.0, 5.0, 10.0));
}

#[test]
fn periodic_wrap() {
    let run = |periodic| {
        let mut b = CatalogueBuilder::new(5, periodic);
        step(&mut b, 0.0, ".....", &[0.0; 5], 0.0, 3.0);
        step(&mut b, 1.0, "#...#", &[0.5, 0.0, 0.0, 0.0, 0.25], 1.0, 2.0);
        step(&mut b, 2.0, ".....", &[0.5, 0.0, 0.0, 0.0, 0.25], 0.0, 1.0);
        b.finish()
    };
    let ev = run(true);
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!(
        (e.epicentre, e.blocks, e.first_block, e.last_block),
        (0, 2, 4, 0)
    );
    assert_eq!(e.potency_m, 0.75);
    let ev = run(false);
    assert_eq!(ev.len(), 2);
    assert_eq!(
        (ev[0].first_block, ev[0].last_block, ev[0].potency_m),
        (0, 0, 0.5)
    );
    assert_eq!(
        (ev[1].first_block, ev[1].last_block, ev[1].potency_m),
        (4, 4, 0.25)
    );

    // Linked in time across the wrap (block 4, then block 0); zero potency.
    let mut b = CatalogueBuilder::new(5, true);
    step(&mut b, 0.0, ".....", &[0.0; 5], 0.0, 3.0);
    step(&mut b, 1.0, "....#", &[0.0; 5], 1.0, 2.0);
    step(&mut b, 2.0, "#....", &[0.0; 5], 1.0, 2.0);
    step(&mut b, 3.0, ".....", &[0.0; 5], 0.0, 1.0);
    let ev = b.finish();
    assert_eq!(ev.len(), 1);
    assert_eq!(
        (ev[0].epicentre, ev[0].first_block, ev[0].last_block),
        (4, 4, 0)
    );
    assert_eq!((ev[0].potency_m, ev[0].magnitude), (0.0, f64::NEG_INFINITY));
}

#[test]
fn truncated_and_streaming() {
    let mut b = CatalogueBuilder::new(6, false);
    // Block 0 already slips at the first sample: cut at the start.
    step(&mut b, 0.0, "#.....", &[0.0; 6], 1.0, 10.0);
    step(
        &mut b,
        1.0,
        "....#.",
        &[0.5, 0.0, 0.0, 0.0, 0.0, 0.0],
        2.0,
        9.0,
    );
    let done = b.take_finished();
    assert_eq!(done.len(), 1);
    let e = &done[0];
    assert_eq!(
        (e.start_s, e.end_s, e.potency_m, e.force_drop_n),
        (0.0, 1.0, 0.5, 1.0)
    );
    assert!(e.truncated);
    assert!(b.take_finished().is_empty());
    step(
        &mut b,
        2.0,
        "....#.",
        &[0.5, 0.0, 0.0, 0.0, 0.75, 0.0],
        3.0,
        8.5,
    );
    let ev = b.finish();
    assert_eq!(ev.len(), 1);
    let e = &ev[0];
    assert_eq!(
        (e.start_s, e.end_s, e.epicentre, e.truncated),
        (0.0, 2.0, 4, true)
    );
    assert_eq!(
        (e.potency_m, e.peak_slip_rate_mps, e.force_drop_n),
        (0.75, 3.0, 1.5)
    );
}

#[test]
fn merge_keeps_the_event_seen_first() {
    // Both starts are t = 0 (one cut at the record's start), but block 3 slipped first.
    let mut b = CatalogueBuilder::new(5, false);
    step(&mut b, 0.0, "...#.", &[0.0; 5], 1.0, 4.0);
    step(&mut b, 1.0, ".#.#.", &[0.0; 5], 1.0, 4.0);
    step(&mut b, 2.0, ".###.", &[0.0; 5], 1.0, 4.0);
    step(&mut b, 3.0, ".....", &[0.0; 5], 1.0, 4.0);
    let ev = b.finish();
    assert_eq!((ev.len(), ev[0].epicentre, ev[0].blocks), (1, 3, 3));
}

#[test]
fn bad_samples_are_rejected() {
    let mut b = CatalogueBuilder::new(3, false);
    let err = b.push(0.0, &[false; 2], &[0.0; 3], &[0.0; 3], &[1.0; 3]);
    let expected = SampleError::Length {
        what: "slipping",
        got: 2,
        expected: 3,
    };
    assert_eq!(err, Err(expected));
    let err = b.push(0.0, &[false; 3], &[0.0; 3], &[0.0; 4], &[1.0; 3]);
    assert!(matches!(
        err,
        Err(SampleError::Length {
            what: "slip_rate_mps",
            ..
        })
    ));
    let err = b.push(0.0, &[true; 3], &[0.0, f64::NAN, 0.0], &[0.0; 3], &[1.0; 3]);
    assert!(matches!(
        err,
        Err(SampleError::NonFinite { block: Some(1), .. })
    ));
    let err = b.push(
        0.0,
        &[true; 3],
        &[0.0; 3],
        &[0.0; 3],
        &[1.0, 1.0, f64::INFINITY],
    );
    assert!(matches!(
        err,
        Err(SampleError::NonFinite {
            what: "force_n",
            block: Some(2),
            ..
        })
    ));
    let err = b.push(f64::NAN, &[true; 3], &[0.0; 3], &[0.0; 3], &[1.0; 3]);
    assert!(matches!(
        err,
        Err(SampleError::NonFinite { block: None, .. })
    ));
    b.push(1.0, &[false; 3], &[0.0; 3], &[0.0; 3], &[1.0; 3])
        .unwrap();
    let err = b.push(1.0, &[true; 3], &[0.0; 3], &[0.0; 3], &[1.0; 3]);
    assert!(err.unwrap_err().to_string().contains("not after"));
    assert_eq!((b.open_events(), b.finish()), (0, vec![]));
}

#[test]
fn csv() {
    let mut b = CatalogueBuilder::new(5, true);
    step(&mut b, 0.5, ".....", &[0.0; 5], 0.0, 3.0);
    step(&mut b, 1.0, "#...#", &[0.0; 5], 1.25, 2.0);
    let mut out = Vec::new();
    write_csv(&b.finish(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let header = "start_s,end_s,duration_s,epicentre,blocks,first_block,last_block,potency_m,\
                  magnitude,peak_slip_rate_mps,force_drop_n,truncated";
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, [header, "0.5,1,0.5,1,2,5,1,0,-inf,1.25,2,1"]);
}
