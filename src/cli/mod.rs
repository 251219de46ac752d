//! The command-line front end: `tribolab run | check | lyapunov | analyze | floquet | sweep |
//! events | friction | rig | fit | laws | systems | presets | bench`. Thin: parsing and printing only; the work is done by the core.

mod analyze;
mod args;
mod bench;
mod bench_chain;
mod check;
mod csv;
mod events;
mod fit;
mod floquet;
mod friction_sweep;
mod help;
mod laws;
mod lyapunov;
mod map;
mod opts;
mod plot;
mod rig;
mod rig_test;
mod run;
mod summary;
mod sweep;

use std::process::ExitCode;

pub use csv::{CsvSink, format_number};

/// Usage text.
pub const USAGE: &str = "\
tribolab — a laboratory for dry friction and stick–slip dynamics

USAGE:
    tribolab                       open the desktop laboratory
    tribolab gui [PRESET.ron]      open it with a preset (--frame-stats: frame timings on stderr;
                   [--fit DATA.csv]  --fit: a friction measurement opened in the Fit tab)
    tribolab gui --baseline        an empty window with frame timings: this machine's floor
    tribolab run PRESET.ron [--duration SECONDS] [--set PATH=VALUE]... [--out FILE.csv]
                   [--summary] [--stats]
                                   run headless; CSV on stdout unless --out is given;
                                   --summary: energy account and each contact's stick and
                                   slip statistics on stderr
    tribolab lyapunov PRESET.ron [--duration S] [--transient S] [--tau S] [--exponents K]
                       [--separation D] [--set PATH=VALUE]... [--no-benettin] [--fast-stiff]
                       [--json]
                                   Lyapunov spectrum (variational equations + QR, saltation
                                   matrices at stick/slip switches), Benettin's largest
                                   exponent, attractor type and Kaplan–Yorke dimension;
                                   S counts iterations for maps; defaults: duration = the
                                   preset's run.duration, transient = duration/10, tau = 1,
                                   Benettin's d0 = 1e4·rtol in [1e-8, 1e-4] of the attractor;
                                   --fast-stiff: stiff laws hundreds of times faster, λ1 and
                                   the verdict only (other exponents become upper bounds)
    tribolab check PRESET.ron... [--set PATH=VALUE]...
                                   validate presets (with the changes applied) and print
                                   every problem
    tribolab analyze FILE.csv [--column NAME] [--time COLUMN] [--json] [--max-samples N]
                     [--resample] [--delay N] [--dim D] [--theiler W] [--bins B]
                     [--fit-range T0,T1] [--spectrogram OUT.csv [--segment N]]
                                   time-series analysis of one CSV column: spectrum peaks,
                                   AMI delay, Cao dimension, largest exponent (Rosenstein fit
                                   range, Wolf), f₀ and its harmonics; text or JSON on
                                   stdout; --spectrogram: short-time spectra as CSV rows
    tribolab floquet PRESET.ron [--set PATH=VALUE]... [--transient S] [--section NAME]
                     [--returns K] [--variational] [--rtol R] [--json]
                                   find the periodic orbit the run settles on: period,
                                   Floquet multipliers, stability verdict; --variational:
                                   monodromy from the tangent dynamics (with saltation
                                   matrices at switches) instead of flow-map differences
    tribolab sweep PRESET.ron --param PATH --from A --to B --steps N [--duration S]
                   [--transient S | --transient-returns N] [--fixed] [--section NAME]
                   [--response] [--set PATH=VALUE]... [--threads N] [--shard K/N]
                   [--out FILE.csv]
                                   bifurcation diagram: N values from A to B, up then down
                                   (each run continuing from the last; --fixed: all from the
                                   preset's start); one CSV row per Poincaré point, the
                                   parameter first; --response: response vs drive frequency;
                                   --shard K/N (with --fixed): every N-th value from the K-th
    tribolab events PRESET.ron [--duration S] [--set PATH=VALUE]... [--out FILE.csv] [--stats]
                                   slip-event catalogue of a chain (one CSV row per event:
                                   start, end, epicentre, blocks, potency, magnitude, peak
                                   slip rate, force drop); Gutenberg–Richter b-value with its
                                   bootstrap interval and the potency power law on stderr
    tribolab friction PRESET.ron --param PATH --from A --to B [--steps N] [--log]
                      [--seeds K] [--transient P] [--measure P] [--set PATH=VALUE]...
                      [--threads N] [--shard K/N] [--out FILE.csv] [--fit [--viscous]]
                                   mean friction against one parameter (speed, temperature),
                                   K noise seeds per value (mean and standard error): one CSV
                                   row per value; P in drive periods (a/v of a tip, default
                                   3 and 20) or seconds (`2e-3s`); --fit: the thermally
                                   activated law F_c − ΔF·|ln(v/v_c)|^β fitted to friction
                                   against speed, the viscous drag γ·v taken off first
                                   (--viscous: kept); --shard K/N: every N-th value from
                                   the K-th
    tribolab rig PRESET.ron [--duration S] [--set PATH=VALUE]... [--out FILE.csv]
                                   velocity steps and slide–hold–slide: runs a preset whose
                                   load point follows a programme and reads each step (μ
                                   before, peak, end; ≈ a and a − b) and each hold (Δμ_peak
                                   against the hold time, healing rate per decade): one CSV
                                   row per step or hold, the table on stderr; on a
                                   characterisation rig (system FrictionRig, or Asperity
                                   with drive Rig): its standard test read (Stribeck curve
                                   against the law's characteristic, frictional-lag loops,
                                   pre-sliding return points and Masing rule, break-away
                                   force against force rate, normal approach per decade of
                                   time): one CSV row per reading, the findings on stderr
    tribolab plot PRESET.ron --view VIEW --out FIGURE.svg [--duration S] [--set PATH=VALUE]...
                  [--size WxH]
                                   a figure for a handout or a paper (SVG: white background,
                                   title, axes with names and units, legend, the parameters in
                                   the caption; default 900x600 px); VIEW: position, velocity,
                                   friction, phase, friction-velocity, spectrum, rig
    tribolab fit DATA.csv... --law NAME --columns ROLE=NAME[:UNIT],... [--free KEY,...]
                 [--set KEY=VALUE]... [--preset P] [--load N] [--nominal-load N]
                 [--stick-speed V] [--force-sign resisting|body] [--smooth H]
                 [--stages KEYS;KEYS] [--rtol R] [--json] [--out FITTED.ron]
    tribolab fit DATA.csv... --preset P --observe position|velocity|force[:N]
                 --columns time=NAME[:UNIT],value=NAME[:UNIT][,sigma=NAME] --free PATH,...
                 [--set PATH=VALUE]... [--stages ...] [--json] [--out FITTED.ron]
                                   identify friction from measurements (Levenberg–Marquardt):
                                   a law fitted to force data (roles time, velocity or
                                   position, load, force, sigma; units such as mm/s, uN),
                                   or a preset's parameters to a recorded trajectory;
                                   estimates, standard errors, 95 % intervals, correlations
                                   and whether the data determine each parameter; --out: the
                                   preset with the fitted values
    tribolab map PRESET.ron --x PATH=A:B:N --y PATH=A:B:N [--duration S]
                 [--transient S | --transient-returns N] [--section NAME] [--shard K/N]
                 [--lyapunov] [--set PATH=VALUE]... [--threads N] [--out FILE.csv]
                 [--figure FILE.svg]
                                   regime map over two parameters: each cell from the
                                   preset's initial state, named steady, periodic (with its
                                   points per period), quasi-periodic, chaotic, unsettled or
                                   failed from its Poincaré returns, with stick fraction,
                                   amplitude, dominant frequency and slip events; one CSV row
                                   per cell; default transient: half the run; --lyapunov:
                                   also λ₁ per cell (about twice the time; decides between
                                   quasi-periodic and chaotic); --shard K/N: only every N-th
                                   cell from the K-th (for job arrays); --figure: the map
                                   as an SVG figure (axes, legend, stability boundary)
    tribolab merge SHARD.csv... [--out FILE.csv]
                                   joins the shards of one map or sweep into the file of the
                                   unsplit run (checks they are all there, once, with one
                                   setting)
    tribolab laws                  list the friction laws with parameter keys, units, ranges
    tribolab systems               list the mechanical systems with their parameters
    tribolab presets               list the built-in presets
    tribolab bench [--quick] [--only TEXT]
                                   time the peer-benchmark workloads (JSON lines with checksums):
                                   W1, W2 and the event-driven bench, the 100-block LuGre chain
                                   W3, Carlson–Langer chains of 10, 100 and 1000 blocks (slip
                                   events per wall-s, cost exponent); --quick: no RK4, no
                                   1000-block chain
    tribolab help [COMMAND]        this text, or one command's (also `COMMAND --help`)
    tribolab --version             version

PRESET is a file path or the name of a built-in preset (see `tribolab presets`).
--set takes the dotted path of any preset field, e.g. system.mass=2, law.mu_s=0.45,
law=LuGre (switch law, default parameters), law.sign=Tanh(1e-4), run.rtol=1e-10, noise=on,
system=two_block (another system), contact.2.mu_s=0.5 (contact 2's own law),
contact.2=lugre, spread.mu_s=0.05 (5 % seeded spread across the contacts).
";

/// Runs the CLI with the arguments after the program name; `None` when there are none (the
/// caller opens the GUI).
pub fn main_with_args(args: &[String]) -> ExitCode {
    let Some(cmd) = args.first() else {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    };
    let rest = &args[1..];
    if help::COMMANDS.contains(&cmd.as_str()) && cmd != "help" && help::asks_for_help(rest) {
        if let Some(u) = help::command_usage(cmd) {
            println!("{u}");
        }
        return ExitCode::SUCCESS;
    }
    let result = match cmd.as_str() {
        "run" => run::run(rest),
        "check" => check::check(rest),
        "analyze" => analyze::analyze(rest),
        "floquet" => floquet::floquet_cmd(rest),
        "sweep" => sweep::sweep_cmd(rest),
        "events" => events::events_cmd(rest),
        "friction" => friction_sweep::friction_cmd(rest),
        "rig" => rig::rig_cmd(rest),
        "plot" => plot::plot_cmd(rest),
        "fit" => fit::fit_cmd(rest),
        "map" => map::map_cmd(rest),
        "merge" => map::merge_cmd(rest),
        "lyapunov" => lyapunov::lyapunov(rest),
        "laws" => laws::print_laws(),
        "systems" => laws::print_systems(),
        "presets" => laws::print_presets(),
        "bench" => bench::bench(rest),
        "help" | "--help" | "-h" => match rest.first() {
            None => {
                println!("{USAGE}");
                Ok(())
            }
            Some(c) => match help::command_usage(c) {
                Some(u) => {
                    println!("{u}");
                    Ok(())
                }
                None => Err(CliError::Usage(format!(
                    "no command `{c}`{}",
                    crate::util::suggest::hint(c, help::COMMANDS.iter().copied())
                ))),
            },
        },
        "--version" | "-V" => {
            println!("tribolab {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => Err(CliError::Usage(format!(
            "unknown command `{other}`{}",
            crate::util::suggest::hint(other, help::COMMANDS.iter().copied())
        ))),
    };
    // A usage error shows the command's own usage; an unknown command, the list of commands.
    let usage = || {
        help::command_usage(cmd).unwrap_or_else(|| {
            format!(
                "The commands: {}. `tribolab help` describes each.",
                help::COMMANDS.join(", ")
            )
        })
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("error: {msg}\n\n{}", usage());
            ExitCode::from(2)
        }
        Err(CliError::UnknownOption(flag)) => {
            let options = help::command_options(cmd);
            let hint = crate::util::suggest::hint(&flag, options.iter().map(String::as_str));
            eprintln!("error: {cmd}: unknown option `{flag}`{hint}\n\n{}", usage());
            ExitCode::from(2)
        }
        Err(CliError::Failed(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// A CLI failure: bad usage (exit 2) or a failed operation (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// Wrong arguments.
    Usage(String),
    /// An option the command does not have (exit 2, with the nearest it has).
    UnknownOption(String),
    /// The command could not be carried out.
    Failed(String),
}

/// Resolves a preset argument: an existing file, else a built-in preset name.
pub fn load_preset_arg(arg: &str) -> Result<crate::preset::Preset, CliError> {
    let path = std::path::Path::new(arg);
    if path.exists() {
        return crate::preset::Preset::load(path).map_err(|e| CliError::Failed(e.to_string()));
    }
    let stem = arg.trim_end_matches(".ron");
    match crate::preset::builtin::load(stem) {
        Some(r) => r.map_err(|e| CliError::Failed(e.to_string())),
        None => Err(CliError::Failed(format!(
            "{arg}: no such file, and no built-in preset of that name{}; `tribolab presets` \
             lists them",
            crate::util::suggest::hint(
                stem,
                crate::preset::builtin::BUILTIN.iter().map(|(s, _)| *s)
            )
        ))),
    }
}

/// The preset an argument names, with every `--set PATH=VALUE` applied in order and an
/// optional `--duration`, then checked: any out-of-range or contradictory value is an error that
/// names the argument and the field.
pub(crate) fn prepared_preset<'a>(
    arg: &str,
    sets: impl IntoIterator<Item = (&'a str, &'a str)>,
    duration_s: Option<f64>,
) -> Result<crate::preset::Preset, CliError> {
    let mut preset = load_preset_arg(arg)?;
    for (path, value) in sets {
        preset
            .set_path(path, value)
            .map_err(|e| CliError::Failed(format!("--set {path}={value}: {e}")))?;
    }
    if let Some(d) = duration_s {
        preset.run.duration_s = d;
    }
    let problems = preset.problems();
    if !problems.is_empty() {
        let msg: Vec<String> = problems
            .iter()
            .map(|(p, m)| format!("{arg}: {p}: {m}"))
            .collect();
        return Err(CliError::Failed(msg.join("\n")));
    }
    Ok(preset)
}

/// Writes a table to `--out FILE` (atomically: a failed write leaves no file) or, without it,
/// to stdout (buffered; a closed pipe is not an error).
fn write_out(
    out: Option<&str>,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    use std::io::Write as _;
    match out {
        Some(path) => {
            crate::util::atomic_write::write_atomically(std::path::Path::new(path), write)
                .map_err(|e| CliError::Failed(format!("{path}: {e} (no file written)")))
        }
        None => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            stdout_result(write(&mut lock).and_then(|()| lock.flush()))
        }
    }
}

/// Maps a stdout write result: a closed pipe (`tribolab laws | head`) is not an error.
fn stdout_result(r: std::io::Result<()>) -> Result<(), CliError> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failed(m) => f.write_str(m),
            CliError::UnknownOption(flag) => write!(f, "unknown option `{flag}`"),
        }
    }
}
