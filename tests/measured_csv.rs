//! CSV import of measured series: a good file round-trips bit for bit; each malformed case
//! gives its typed error at the right `line:col`; non-uniform time steps are refused unless
//! resampling is asked for.

#![allow(clippy::unwrap_used)]

use tribolab::analysis::measured::{
    CsvSelection, MeasuredError, Place, Resample, parse_csv, read_csv,
};
use tribolab::analysis::resample::DEFAULT_SPACING_TOLERANCE as TOL;
use tribolab::cli::format_number;

fn parse(text: &str) -> Result<tribolab::analysis::measured::MeasuredTable, MeasuredError> {
    parse_csv(text, "m.csv", CsvSelection::default())
}

fn place(line: usize, col: usize) -> Place {
    Place {
        file: "m.csv".into(),
        line,
        col,
    }
}

#[test]
fn good_file_round_trips() {
    let t: Vec<f64> = (0..200).map(|k| k as f64 * 1e-3).collect();
    let x: Vec<f64> = t
        .iter()
        .map(|t| (37.0 * t).sin() * 1e-3 + 0.1 / 3.0)
        .collect();
    let f: Vec<f64> = t.iter().map(|t| -2.5e-7 * t.exp()).collect();
    let mut text = String::from("t,x,F\n");
    for k in 0..t.len() {
        let row = [t[k], x[k], f[k]].map(format_number).join(",");
        text.push_str(&row);
        text.push('\n');
    }
    let dir = std::env::temp_dir().join(format!("tribolab-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("good.csv");
    std::fs::write(&path, &text).unwrap();
    let table = read_csv(&path, CsvSelection::default()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(table.time_name, "t");
    assert_eq!(table.time_s, t);
    assert_eq!(
        table.columns,
        vec![("x".into(), x.clone()), ("F".into(), f)]
    );
    let s = table.series("x", TOL, Resample::Never).unwrap();
    assert!(!s.resampled && s.values == x);
    assert!((s.dt_s - 1e-3).abs() < 1e-15 && s.t0_s == 0.0);
}

#[test]
fn format_variants_are_accepted() {
    // BOM, comments, blank lines, CRLF, quotes, semicolons, a time column that is not first
    // (found by name, unit ignored), and an unused text column.
    let text = "\u{feff}# bench run 7\r\n\"x [m]\"; \"time [s]\" ;note\r\n\r\n1.5;0;ok\r\n# pause\r\n2.5; 0.5 ;later\r\n";
    let table = parse_csv(
        text,
        "m.csv",
        CsvSelection {
            time: None,
            columns: &["x [m]"],
        },
    )
    .unwrap();
    assert_eq!(table.time_name, "time [s]");
    assert_eq!(table.time_s, vec![0.0, 0.5]);
    assert_eq!(table.columns, vec![("x [m]".into(), vec![1.5, 2.5])]);
}

#[test]
fn ragged_rows_point_at_the_missing_or_extra_cell() {
    let short = parse("t,x,y\n0,1,2\n1,2\n").unwrap_err();
    assert_eq!(
        short,
        MeasuredError::Ragged {
            at: place(3, 4),
            found: 2,
            expected: 3
        }
    );
    let long = parse("t,x\n0,1\n1,2,  3\n").unwrap_err();
    assert_eq!(
        long,
        MeasuredError::Ragged {
            at: place(3, 7),
            found: 3,
            expected: 2
        }
    );
    assert_eq!(
        long.to_string(),
        "m.csv:3:7: row has 3 cells, the header has 2"
    );
}

#[test]
fn bad_cells_are_located() {
    let e = parse("t,x\n0,1\n0.1, abc\n").unwrap_err();
    assert_eq!(
        e,
        MeasuredError::NonNumeric {
            at: place(3, 6),
            column: "x".into(),
            text: "abc".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "m.csv:3:6: `abc` in column `x` is not a number"
    );
    let empty = parse("t,x\n0,1\n0.1,\n").unwrap_err();
    assert!(
        matches!(&empty, MeasuredError::NonNumeric { at, text, .. } if *at == place(3, 5) && text.is_empty()),
        "{empty:?}"
    );
    for bad in ["NaN", "inf", "-infinity"] {
        let e = parse(&format!("t,x\n0,1\n1,{bad}\n")).unwrap_err();
        assert!(
            matches!(&e, MeasuredError::NonFinite { at, column, .. } if *at == place(3, 3) && column == "x"),
            "{e:?}"
        );
    }
}

#[test]
fn time_must_increase_strictly() {
    let dup = parse("t,x\n0,1\n0.5,2\n0.5,3\n").unwrap_err();
    assert_eq!(
        dup,
        MeasuredError::DuplicateTime {
            at: place(4, 1),
            value: 0.5
        }
    );
    let back = parse("x,t\n1,0\n2,0.5\n3,0.25\n").unwrap_err();
    assert_eq!(
        back,
        MeasuredError::TimeNotIncreasing {
            at: place(4, 3),
            value: 0.25,
            previous: 0.5
        }
    );
}

#[test]
fn header_and_column_problems() {
    assert!(matches!(
        parse("# only a comment\n\n"),
        Err(MeasuredError::NoHeader { .. })
    ));
    assert!(matches!(
        parse("t\n0\n1\n"),
        Err(MeasuredError::TooFewColumns { found: 1, .. })
    ));
    assert_eq!(
        parse("t,x,x\n0,1,2\n").unwrap_err(),
        MeasuredError::BadName {
            at: place(1, 5),
            name: "x".into()
        }
    );
    let e = parse_csv(
        "t,x\n0,1\n1,2\n",
        "m.csv",
        CsvSelection {
            time: None,
            columns: &["v"],
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "m.csv: no column named `v`; the columns are: `t`, `x`"
    );
    assert!(matches!(
        parse("t,x\n0,1\n"),
        Err(MeasuredError::TooFewRows { rows: 1, .. })
    ));
}

#[test]
fn non_uniform_steps_need_explicit_resampling() {
    // Steps of 10 ms with one missing sample (a 20 ms step) after row 3.
    let t = [0.0, 0.01, 0.02, 0.04, 0.05, 0.06];
    let mut text = String::from("t,x\n");
    for tk in t {
        text.push_str(&format!("{tk},{}\n", 3.0 * tk));
    }
    let table = parse(&text).unwrap();
    let err = table.series("x", TOL, Resample::Never).unwrap_err();
    let MeasuredError::NonUniform { spacing, .. } = &err else {
        panic!("{err:?}")
    };
    assert!((spacing.median_s - 0.01).abs() < 1e-12 && (spacing.max_s - 0.02).abs() < 1e-12);
    assert_eq!(spacing.worst_step, 2);
    assert!(err.to_string().contains("--resample"), "{err}");
    let s = table.series("x", TOL, Resample::LinearToMedian).unwrap();
    assert!(s.resampled);
    assert_eq!(s.values.len(), 7);
    for (k, v) in s.values.iter().enumerate() {
        assert!((v - 0.03 * k as f64).abs() < 1e-12, "{:?}", s.values);
    }
    // Jitter inside the 1 % tolerance passes untouched.
    let jitter = parse("t,x\n0,1\n0.010004,2\n0.02,3\n0.029996,4\n").unwrap();
    assert!(!jitter.series("x", TOL, Resample::Never).unwrap().resampled);
}

#[test]
fn tribolab_csvs_skip_their_event_rows() {
    // As `tribolab run --out` writes them: an event row at a switch between grid rows, one at
    // the time of a grid row.
    let text =
        "t,x,event\n0,0.0,0\n0.001,0.1,0\n0.0015,0.15,1\n0.002,0.2,0\n0.002,0.2,1\n0.003,0.3,0\n";
    let table = parse(text).unwrap();
    assert_eq!(table.time_s, vec![0.0, 0.001, 0.002, 0.003]);
    assert_eq!(table.columns.len(), 1, "event is not a data column");
    assert_eq!(table.columns[0].1, vec![0.0, 0.1, 0.2, 0.3]);
    assert_eq!(table.skipped_event_rows, 2);
    // Asked for by name, `event` is data like any column: the repeated time is an error.
    let sel = CsvSelection {
        time: None,
        columns: &["x", "event"],
    };
    match parse_csv(text, "m.csv", sel) {
        Err(MeasuredError::DuplicateTime { at, .. }) => assert_eq!(at, place(6, 1)),
        other => panic!("{other:?}"),
    }
}
