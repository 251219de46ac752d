//! Guided lessons: every built-in lesson loads, each of its steps sets up (presets found,
//! changes applied, values in range), and a step always stands for the same state whichever way
//! the class arrives at it; a lecturer's broken lesson file is answered with its place and the
//! problem.

#![allow(clippy::unwrap_used)]

use tribolab::lesson::builtin::{BUILTIN_LESSONS, load};
use tribolab::lesson::{Lesson, load_preset};

fn builtin_preset(name: &str) -> Result<tribolab::preset::Preset, String> {
    load_preset(name, None)
}

#[test]
fn every_built_in_lesson_sets_up_every_step() {
    assert!(BUILTIN_LESSONS.len() >= 6);
    for (stem, _) in BUILTIN_LESSONS {
        let lesson = load(stem).unwrap().unwrap_or_else(|e| panic!("{e}"));
        let problems = lesson.problems(&builtin_preset);
        assert!(problems.is_empty(), "{stem}: {problems:?}");
        assert!(lesson.steps.len() >= 3, "{stem}");
        assert!(
            lesson.steps[0].preset.is_some(),
            "{stem}: the first step loads a preset"
        );
        for (k, step) in lesson.steps.iter().enumerate() {
            assert!(step.view.is_some(), "{stem} step {}: no view", k + 1);
            assert!(
                !step.question.is_empty(),
                "{stem} step {}: no question",
                k + 1
            );
            // Student text without source codes.
            for code in ["S1 ", "S2 ", "S3 ", "S4 ", " eq ", "Fig "] {
                assert!(
                    !step.look_for.contains(code),
                    "{stem} step {}: `{code}`",
                    k + 1
                );
            }
        }
    }
}

/// A step's state is the last preset at or before it with every change from there on; going
/// back to a step gives the same preset as arriving at it.
#[test]
fn a_step_stands_for_one_state() {
    let lesson = load("belt_speed_and_stick_slip").unwrap().unwrap();
    let at = |k| lesson.state_at(k, &builtin_preset).unwrap().unwrap();
    let rpm = |k| match at(k).system {
        tribolab::systems::SystemConfig::BeltBlock(b) => b.wheel_rpm,
        _ => panic!("not the bench"),
    };
    assert_eq!(rpm(0), 19.36);
    assert_eq!(rpm(1), 40.0);
    assert_eq!(rpm(3), 60.0);
    assert_eq!(rpm(1), 40.0);
    // Changes made in a step apply on top of the preset of an earlier step.
    let dwell = load("dwell_time").unwrap().unwrap();
    let p = dwell.state_at(1, &builtin_preset).unwrap().unwrap();
    assert_eq!(p.law.params().get("gamma"), Some(10.0));
    let p = dwell.state_at(2, &builtin_preset).unwrap().unwrap();
    assert_eq!(p.name, "Rate and state: slide–hold–slide healing");
}

#[test]
fn a_broken_lesson_file_says_where_and_what() {
    let cut = "(\n    version: 1,\n    title: \"x\",\n";
    let e = Lesson::from_ron(cut, "mine.ron").unwrap_err().to_string();
    assert!(
        e.starts_with("mine.ron:3:") && e.contains("unexpected end of file"),
        "{e}"
    );
    let text = r#"(
        version: 1,
        title: "Mine",
        summary: "A lesson with mistakes.",
        steps: [
            (title: "Typo", preset: "coulmb", view: Overview, look_for: "x", question: "?"),
            (title: "Bad key", preset: "coulomb", set: [("system.stifness", "3")], look_for: "y"),
            (title: "Out of range", set: [("system.mass", "-1")], look_for: "z"),
            (title: "Empty", look_for: " "),
        ],
    )"#;
    let lesson = Lesson::from_ron(text, "mine.ron").unwrap();
    let problems = lesson.problems(&builtin_preset);
    let all = problems.join("\n");
    assert!(
        all.contains("step 1: `coulmb` is neither a built-in preset (did you mean `coulomb`?)"),
        "{all}"
    );
    assert!(all.contains("step 2: system.stifness=3"), "{all}");
    assert!(all.contains("(did you mean `stiffness`?)"), "{all}");
    assert!(all.contains("step 3: system.mass=-1"), "{all}");
    assert!(all.contains("step 4: look_for is empty"), "{all}");
    // A lesson without steps is refused when read (the window would have nothing to show).
    let empty = "(version: 1, title: \"Empty\", summary: \"none\", steps: [])";
    let e = Lesson::from_ron(empty, "empty.ron")
        .unwrap_err()
        .to_string();
    assert!(e.contains("the lesson has no steps"), "{e}");
    let future = text.replace("version: 1", "version: 7");
    let e = Lesson::from_ron(&future, "mine.ron")
        .unwrap_err()
        .to_string();
    assert!(e.contains("version 7"), "{e}");
}
