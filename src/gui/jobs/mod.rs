//! The analysis thread: a second named worker (`tribolab-analysis`) that runs the heavy
//! analyses — Lyapunov spectra, Floquet multipliers, bifurcation sweeps, the time-series
//! pipeline — so the window never waits for them.
//!
//! Protocol: the window submits a [`Job`] with a fresh id and a fresh cancel flag; submitting
//! raises the previous job's flag first, so a new job cancels the old one. The thread takes the
//! newest request (older queued ones are answered [`JobMsg::Cancelled`] unseen), runs it and
//! answers through a bounded channel: live updates (progress, the running Lyapunov estimate,
//! each finished sweep run) with `try_send` — dropped when the window lags, the next one
//! supersedes them — and the final result with a blocking `send` (back-pressure on the thread,
//! never on the window). Jobs check their flag between chunks of work; the Floquet shooting and
//! the series pipeline have no cancel points inside the core, so a cancelled one finishes its
//! computation and its result is dropped.

mod fit;
mod lyapunov;
mod run;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::thread::JoinHandle;

use crate::analysis::activated_friction::SpeedSweepFit;
use crate::analysis::floquet::FloquetReport;
use crate::analysis::friction_sweep::{FrictionPoint, FrictionSweepSpec};
use crate::analysis::lyapunov::LyapunovOptions;
use crate::analysis::pipeline::{PipelineOptions, SeriesReport};
use crate::analysis::regime_map::{MapCell, MapSpec};
use crate::analysis::sweep::{SweepResult, SweepSpec, ValueRun};
use crate::analysis::{FloquetOptions, Spectrum as AmplitudeSpectrum};
use crate::preset::Preset;
use crate::systems::ThermalFriction;

pub use fit::{FitJob, FitOutput};
pub use lyapunov::LyapunovSnapshot;

/// Capacity of the thread → window channel, in messages.
const CHANNEL_MESSAGES: usize = 64;

/// Where an analysed series came from.
#[derive(Clone, Debug, PartialEq)]
pub enum SeriesOrigin {
    /// A column of the running simulation's history.
    Simulation,
    /// An imported CSV file.
    Imported {
        /// File name.
        file: String,
    },
}

/// A series handed to the pipeline.
#[derive(Clone, Debug)]
pub struct SeriesInput {
    /// Where it came from.
    pub origin: SeriesOrigin,
    /// Column name.
    pub name: String,
    /// Samples (uniform).
    pub values: Vec<f64>,
    /// Sampling interval [s] (maps: 1 iteration).
    pub dt_s: f64,
    /// Time of the first sample [s].
    pub t0_s: f64,
    /// Notes to show with the result (resampling, truncation).
    pub notes: Vec<String>,
}

/// Work for the analysis thread.
#[derive(Clone, Debug)]
pub enum Job {
    /// Lyapunov spectrum of a preset, with a live running estimate.
    Lyapunov {
        /// The system.
        preset: Box<Preset>,
        /// Settings (the forcing period is taken from the preset).
        options: LyapunovOptions,
    },
    /// Periodic orbit and Floquet multipliers of a preset.
    Floquet {
        /// The system.
        preset: Box<Preset>,
        /// Settings.
        options: FloquetOptions,
        /// Relative tolerance of the integrations.
        rtol: f64,
    },
    /// Bifurcation sweep (flows through the core's sweep, maps iterated here).
    Sweep {
        /// The system.
        preset: Box<Preset>,
        /// Parameter, values, duration, transient.
        spec: SweepSpec,
    },
    /// Mean friction against speed or temperature, with error bars over noise seeds.
    FrictionSweep {
        /// The system.
        preset: Box<Preset>,
        /// Parameter, values, seeds, transient and window.
        spec: FrictionSweepSpec,
    },
    /// Regime map over two parameters.
    RegimeMap {
        /// The system.
        preset: Box<Preset>,
        /// Axes, run length and transient.
        spec: MapSpec,
    },
    /// The time-series chain on one series.
    Series {
        /// The series.
        input: Box<SeriesInput>,
        /// Settings.
        options: PipelineOptions,
    },
    /// A friction law fitted to a force measurement.
    Fit(Box<FitJob>),
}

impl Job {
    /// What kind of job this is.
    pub fn kind(&self) -> JobKind {
        match self {
            Job::Lyapunov { .. } => JobKind::Lyapunov,
            Job::Floquet { .. } => JobKind::Floquet,
            Job::Sweep { .. } => JobKind::Sweep,
            Job::FrictionSweep { .. } => JobKind::FrictionSweep,
            Job::RegimeMap { .. } => JobKind::RegimeMap,
            Job::Series { .. } => JobKind::Series,
            Job::Fit(_) => JobKind::Fit,
        }
    }
}

/// Kinds of job (one result slot each in the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Lyapunov spectrum.
    Lyapunov,
    /// Floquet multipliers.
    Floquet,
    /// Bifurcation sweep.
    Sweep,
    /// Friction against speed or temperature.
    FrictionSweep,
    /// Regime map.
    RegimeMap,
    /// Series pipeline.
    Series,
    /// Friction law fit.
    Fit,
}

impl JobKind {
    /// Name in words.
    pub fn describe(self) -> &'static str {
        match self {
            JobKind::Lyapunov => "Lyapunov spectrum",
            JobKind::Floquet => "Floquet multipliers",
            JobKind::Sweep => "bifurcation sweep",
            JobKind::FrictionSweep => "friction sweep",
            JobKind::RegimeMap => "regime map",
            JobKind::Series => "series analysis",
            JobKind::Fit => "friction fit",
        }
    }
}

/// The pipeline's result with what the panels draw besides it.
#[derive(Clone, Debug)]
pub struct SeriesResult {
    /// The series analysed.
    pub input: SeriesInput,
    /// Full amplitude spectrum (Hann window).
    pub spectrum: AmplitudeSpectrum,
    /// The chain's report.
    pub report: SeriesReport,
}

/// A finished friction sweep with what its plot draws besides the points.
#[derive(Clone, Debug)]
pub struct FrictionSweepResult {
    /// Swept parameter (dotted preset path).
    pub param: String,
    /// Whether the parameter is the drive speed (log axis, activated-law fit).
    pub by_speed: bool,
    /// The points, in the order swept.
    pub points: Vec<FrictionPoint>,
    /// The system's drag and athermal friction.
    pub study: ThermalFriction,
    /// The activated law with the exponent fitted (speed sweeps).
    pub fit: Option<SpeedSweepFit>,
    /// The activated law with the exponent held at 2/3 (speed sweeps).
    pub fit_two_thirds: Option<SpeedSweepFit>,
}

/// Thread → window.
#[derive(Debug)]
pub enum JobMsg {
    /// How far the job is (0–1) and what it does.
    Progress {
        /// Job id.
        id: u64,
        /// Fraction done.
        fraction: f32,
        /// In words.
        text: String,
    },
    /// The Lyapunov estimate now (`done` on the last one).
    Lyapunov {
        /// Job id.
        id: u64,
        /// The estimate.
        snapshot: Box<LyapunovSnapshot>,
    },
    /// Floquet result.
    Floquet {
        /// Job id.
        id: u64,
        /// The report.
        report: Box<FloquetReport>,
    },
    /// One run of a sweep finished (live filling of the diagram).
    SweepRun {
        /// Job id.
        id: u64,
        /// The run.
        run: Box<ValueRun>,
    },
    /// The whole sweep.
    Sweep {
        /// Job id.
        id: u64,
        /// The result.
        result: Box<SweepResult>,
    },
    /// Friction sweep result.
    FrictionSweep {
        /// Job id.
        id: u64,
        /// The result.
        result: Box<FrictionSweepResult>,
    },
    /// One cell of a regime map finished (live filling of the map).
    MapCell {
        /// Job id.
        id: u64,
        /// The cell.
        cell: Box<MapCell>,
    },
    /// The whole regime map, every cell in cell order.
    RegimeMap {
        /// Job id.
        id: u64,
        /// The cells.
        cells: Vec<MapCell>,
    },
    /// Series pipeline result.
    Series {
        /// Job id.
        id: u64,
        /// The result.
        result: Box<SeriesResult>,
    },
    /// A finished fit.
    Fit {
        /// Job id.
        id: u64,
        /// The fit with what the tab draws.
        output: Box<FitOutput>,
    },
    /// The job failed.
    Failed {
        /// Job id.
        id: u64,
        /// Why, in words.
        message: String,
    },
    /// The job stopped because it was cancelled (or superseded).
    Cancelled {
        /// Job id.
        id: u64,
    },
}

impl JobMsg {
    /// The job the message belongs to.
    pub fn id(&self) -> u64 {
        match self {
            JobMsg::Progress { id, .. }
            | JobMsg::Lyapunov { id, .. }
            | JobMsg::Floquet { id, .. }
            | JobMsg::SweepRun { id, .. }
            | JobMsg::Sweep { id, .. }
            | JobMsg::FrictionSweep { id, .. }
            | JobMsg::MapCell { id, .. }
            | JobMsg::RegimeMap { id, .. }
            | JobMsg::Series { id, .. }
            | JobMsg::Fit { id, .. }
            | JobMsg::Failed { id, .. }
            | JobMsg::Cancelled { id } => *id,
        }
    }
}

/// A request: job, id and its cancel flag.
struct Request {
    id: u64,
    job: Job,
    cancel: Arc<AtomicBool>,
}

/// What a running job uses to talk back.
pub(crate) struct Reply {
    id: u64,
    out: SyncSender<JobMsg>,
    wake: Arc<dyn Fn() + Send + Sync>,
    cancel: Arc<AtomicBool>,
}

impl Reply {
    /// Whether the job should stop.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag (for the core's sweep).
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.cancel
    }

    /// Job id.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// A live update: dropped when the channel is full (the next one supersedes it).
    pub(crate) fn live(&self, msg: JobMsg) {
        match self.out.try_send(msg) {
            Ok(()) => (self.wake)(),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {}
        }
    }

    /// A final message: waits for room (the window drains every frame).
    pub(crate) fn last(&self, msg: JobMsg) {
        if self.out.send(msg).is_ok() {
            (self.wake)();
        }
    }

    /// Progress in `[0, 1]` with a text.
    pub(crate) fn progress(&self, fraction: f64, text: String) {
        self.live(JobMsg::Progress {
            id: self.id,
            fraction: fraction.clamp(0.0, 1.0) as f32,
            text,
        });
    }
}

/// The window's handle on the analysis thread.
pub struct AnalysisHandle {
    requests: Sender<Option<Request>>,
    messages: Receiver<JobMsg>,
    cancel: Arc<AtomicBool>,
    next_id: u64,
    thread: Option<JoinHandle<()>>,
}

impl AnalysisHandle {
    /// Starts the thread; `wake` is called after each message (repaint request).
    pub fn spawn(wake: impl Fn() + Send + Sync + 'static) -> std::io::Result<Self> {
        let (req_tx, req_rx) = mpsc::channel::<Option<Request>>();
        let (msg_tx, msg_rx) = mpsc::sync_channel(CHANNEL_MESSAGES);
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        let thread = std::thread::Builder::new()
            .name("tribolab-analysis".into())
            .spawn(move || {
                // Maps and sweeps from the window yield to its frames (gui::priority).
                let _ = crate::gui::priority::make_this_thread_background();
                serve(&req_rx, &msg_tx, &wake)
            })?;
        Ok(Self {
            requests: req_tx,
            messages: msg_rx,
            cancel: Arc::new(AtomicBool::new(false)),
            next_id: 0,
            thread: Some(thread),
        })
    }

    /// Submits a job (cancelling the current one); returns its id.
    pub fn submit(&mut self, job: Job) -> u64 {
        self.cancel.store(true, Ordering::Relaxed);
        self.cancel = Arc::new(AtomicBool::new(false));
        self.next_id += 1;
        let _ = self.requests.send(Some(Request {
            id: self.next_id,
            job,
            cancel: Arc::clone(&self.cancel),
        }));
        self.next_id
    }

    /// Asks the current job to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Next pending message, if any (never blocks).
    pub fn try_recv(&self) -> Option<JobMsg> {
        self.messages.try_recv().ok()
    }
}

impl Drop for AnalysisHandle {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _ = self.requests.send(None);
        // Unblock a final `send`, then join; a job without cancel points (Floquet, pipeline)
        // may outlive the window by its own duration: it is left to finish detached.
        crate::gui::shutdown::join_draining(self.thread.take(), &self.messages);
    }
}

/// The thread's loop: newest request first, until the window is gone or says stop.
fn serve(
    requests: &Receiver<Option<Request>>,
    out: &SyncSender<JobMsg>,
    wake: &Arc<dyn Fn() + Send + Sync>,
) {
    while let Ok(Some(mut req)) = requests.recv() {
        // Only the newest of a burst runs; the others are answered unseen.
        loop {
            match requests.try_recv() {
                Ok(Some(newer)) => {
                    let _ = out.try_send(JobMsg::Cancelled { id: req.id });
                    req = newer;
                }
                Ok(None) => return,
                Err(_) => break,
            }
        }
        let reply = Reply {
            id: req.id,
            out: out.clone(),
            wake: Arc::clone(wake),
            cancel: req.cancel,
        };
        if reply.cancelled() {
            reply.last(JobMsg::Cancelled { id: req.id });
            continue;
        }
        // A panic in the numerics must not take the window down: report it as a failure.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run::run(req.job, &reply);
        }));
        if let Err(panic) = result {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            reply.last(JobMsg::Failed {
                id: req.id,
                message: format!("internal error in the analysis: {message}"),
            });
        }
    }
}
