//! The simulation worker: a named thread that owns the [`Simulation`], takes [`Command`]s from
//! the window and sends sample chunks back through a bounded channel (back-pressure instead of
//! unbounded memory). The window never waits for it.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::pacing::{FrameClock, Pacer};
use crate::integrate::driver::{SampleSink, SectionId};
use crate::integrate::{Column, Runner};
use crate::params::ParamSet;
use crate::preset::Preset;
use crate::systems::Layout;

/// Capacity of the worker → window channel, in chunks.
const CHANNEL_CHUNKS: usize = 64;
/// Pause between ticks at a finite speed (the window draws at most ~60 Hz anyway).
const TICK: Duration = Duration::from_millis(8);
/// Longest wall interval credited to one tick (after a stall the run does not jump ahead).
const MAX_TICK_WALL_S: f64 = 0.1;
/// Model time of a single step command [s].
pub const STEP_MODEL_S: f64 = 0.01;
/// Wall time aimed at per chunk when running as fast as possible [s].
const MAX_SPEED_CHUNK_WALL_S: f64 = 0.02;

/// How fast model time runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    /// Model seconds per wall second.
    Factor(f64),
    /// As fast as the machine allows.
    Max,
}

/// Window → worker.
#[derive(Debug)]
pub enum Command {
    /// Use this preset: applied live when only live parameters changed, else restarts.
    Apply(Box<Preset>),
    /// Restart from the initial state of this preset.
    Restart(Box<Preset>),
    /// Run.
    Play,
    /// Stop advancing.
    Pause,
    /// Advance this much model time [s] (the Step button: [`STEP_MODEL_S`]), then stay paused.
    Step(f64),
    /// Change the speed.
    SetSpeed(Speed),
    /// End the thread.
    Shutdown,
    /// Panic inside the worker as a bug in the numerics would (for the test that the window
    /// survives one: the run stops with a message and Reset starts a new one).
    InjectFault,
}

/// Worker → window.
#[derive(Debug)]
pub enum WorkerMsg {
    /// A new run began (samples of older generations are stale).
    Started {
        /// Run generation.
        generation: u64,
        /// Output columns with their meaning (`t` first, `event` last).
        columns: Vec<Column>,
        /// Degrees of freedom, contacts and links of the system.
        layout: Layout,
        /// Names of the model's Poincaré sections.
        section_names: Vec<String>,
        /// Stroboscopic period when the system is periodically forced [s].
        strobe_period_s: Option<f64>,
        /// Integrator in use.
        method: &'static str,
    },
    /// New samples.
    Chunk(Chunk),
    /// A live parameter change was applied.
    Updated {
        /// Run generation.
        generation: u64,
        /// The system's parts with the new parameters (the driver speed may have changed).
        layout: Layout,
        /// Stroboscopic period with the new parameters [s].
        strobe_period_s: Option<f64>,
    },
    /// The run stopped with an error (the thread lives on; a restart clears it).
    Failed {
        /// Run generation.
        generation: u64,
        /// The error in words (with the simulation time).
        message: String,
    },
}

/// A batch of samples.
#[derive(Debug, Default)]
pub struct Chunk {
    /// Run generation.
    pub generation: u64,
    /// Rows, flattened.
    pub rows: Vec<f64>,
    /// Poincaré points.
    pub sections: Vec<(SectionId, Vec<f64>)>,
    /// Model time reached [s].
    pub t_s: f64,
    /// Model time advanced by this chunk [s].
    pub model_s: f64,
    /// Wall time spent computing it [s].
    pub wall_s: f64,
}

impl SampleSink for Chunk {
    fn push(&mut self, row: &[f64]) {
        self.rows.extend_from_slice(row);
    }

    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        self.sections.push((section, row.to_vec()));
    }
}

/// The window's handle on the worker thread.
pub struct WorkerHandle {
    commands: Sender<Command>,
    messages: Receiver<WorkerMsg>,
    thread: Option<JoinHandle<()>>,
}

impl WorkerHandle {
    /// Starts the worker with a preset; `wake` is called after each message (repaint request);
    /// `clock` is where the window records its frames (the worker paces itself on it when
    /// running as fast as possible).
    pub fn spawn(
        preset: Preset,
        running: bool,
        speed: Speed,
        clock: Arc<FrameClock>,
        wake: impl Fn() + Send + 'static,
    ) -> std::io::Result<Self> {
        let (cmd_tx, cmd_rx) = mpsc::channel();
        let (msg_tx, msg_rx) = mpsc::sync_channel(CHANNEL_CHUNKS);
        let thread = std::thread::Builder::new()
            .name("tribolab-simulation".into())
            .spawn(move || {
                let mut w = Worker {
                    commands: cmd_rx,
                    out: msg_tx,
                    wake: Box::new(wake),
                    preset: preset.clone(),
                    sim: None,
                    generation: 0,
                    running,
                    speed,
                    last_tick: Instant::now(),
                    model_clock_s: 0.0,
                    delivered_s: 0.0,
                    max_chunk_model_s: 0.1,
                    clock,
                    pacer: Pacer::default(),
                };
                w.restart(preset);
                w.run();
            })?;
        Ok(Self {
            commands: cmd_tx,
            messages: msg_rx,
            thread: Some(thread),
        })
    }

    /// Sends a command (never blocks; a dead worker is ignored).
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// Next pending message, if any (never blocks).
    pub fn try_recv(&self) -> Option<WorkerMsg> {
        self.messages.try_recv().ok()
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Shutdown);
        // Unblock a worker waiting on a full channel, then join it.
        while self.messages.try_recv().is_ok() {}
        super::shutdown::join_draining(self.thread.take(), &self.messages);
    }
}

struct Worker {
    commands: Receiver<Command>,
    out: SyncSender<WorkerMsg>,
    wake: Box<dyn Fn() + Send>,
    preset: Preset,
    sim: Option<Runner>,
    generation: u64,
    running: bool,
    speed: Speed,
    last_tick: Instant,
    /// Model time the run should have reached at the requested speed [s]; kept apart from
    /// the simulation time, which overshoots each target by part of a step (by hundreds of
    /// seconds when the run slides steadily and the steps grow).
    model_clock_s: f64,
    /// Model time up to which rows have been sent [s].
    delivered_s: f64,
    max_chunk_model_s: f64,
    /// The window's frames (pacing at full speed).
    clock: Arc<FrameClock>,
    pacer: Pacer,
}

impl Worker {
    fn run(&mut self) {
        loop {
            let active = self.running && self.sim.is_some();
            let first = if active {
                match self.commands.try_recv() {
                    Ok(c) => Some(c),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return,
                }
            } else {
                match self.commands.recv() {
                    Ok(c) => Some(c),
                    Err(_) => return,
                }
            };
            let mut batch: Vec<Command> = first.into_iter().collect();
            batch.extend(self.commands.try_iter());
            // Only the newest preset of a burst of slider moves matters.
            let last_apply = batch.iter().rposition(|c| matches!(c, Command::Apply(_)));
            for (i, c) in batch.into_iter().enumerate() {
                if matches!(c, Command::Apply(_)) && Some(i) != last_apply {
                    continue;
                }
                if self.guarded(|w| w.handle(c)) == Some(false) {
                    return;
                }
            }
            if self.running && self.sim.is_some() && self.guarded(Self::tick) == Some(false) {
                return;
            }
        }
    }

    /// Runs `f`, catching a panic (a bug in the numerics must not take the window down): the
    /// run is dropped and reported as failed, the thread lives on and the next Reset or
    /// preset starts afresh. `None` after a panic.
    fn guarded(&mut self, f: impl FnOnce(&mut Self) -> bool) -> Option<bool> {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self)));
        match result {
            Ok(keep) => Some(keep),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                self.sim = None;
                self.running = false;
                self.send(WorkerMsg::Failed {
                    generation: self.generation,
                    message: format!(
                        "internal error in the simulation ({message}); press Reset to start again"
                    ),
                });
                None
            }
        }
    }

    /// Returns `false` when the thread should end.
    fn handle(&mut self, c: Command) -> bool {
        match c {
            Command::Apply(p) => self.apply(*p),
            Command::Restart(p) => self.restart(*p),
            Command::Play => {
                self.running = true;
                self.last_tick = Instant::now();
                self.model_clock_s = self.delivered_s;
            }
            Command::Pause => self.running = false,
            Command::Step(dt) => {
                self.running = false;
                if self.sim.is_some() {
                    return self.advance_to(self.delivered_s + dt.max(0.0));
                }
            }
            Command::SetSpeed(s) => {
                self.speed = s;
                self.model_clock_s = self.delivered_s;
            }
            Command::Shutdown => return false,
            Command::InjectFault => panic!("injected fault"),
        }
        true
    }

    fn send(&self, msg: WorkerMsg) -> bool {
        let ok = self.out.send(msg).is_ok();
        (self.wake)();
        ok
    }

    fn restart(&mut self, preset: Preset) {
        self.generation += 1;
        self.preset = preset;
        match self.preset.build_runner() {
            Ok(mut sim) => {
                sim.track_sections(strobe_period_s(&self.preset));
                let msg = WorkerMsg::Started {
                    generation: self.generation,
                    columns: sim.columns(),
                    layout: self.preset.system.layout(),
                    section_names: sim.section_names(),
                    strobe_period_s: strobe_period_s(&self.preset),
                    method: sim.method_name(),
                };
                self.sim = Some(sim);
                self.send(msg);
                // The initial sample.
                self.delivered_s = 0.0;
                self.advance_to(0.0);
            }
            Err(e) => {
                self.sim = None;
                self.send(WorkerMsg::Failed {
                    generation: self.generation,
                    message: e.to_string(),
                });
            }
        }
        self.last_tick = Instant::now();
        self.model_clock_s = 0.0;
        self.delivered_s = 0.0;
    }

    fn apply(&mut self, preset: Preset) {
        if restart_reason(&self.preset, &preset).is_some() || self.sim.is_none() {
            self.restart(preset);
            return;
        }
        let spec = preset.spec();
        let strobe = strobe_period_s(&preset);
        let applied = self.sim.as_mut().is_some_and(|sim| {
            let ok = sim.reconfigure(&spec).is_ok();
            if ok {
                sim.track_sections(strobe);
            }
            ok
        });
        if applied {
            self.send(WorkerMsg::Updated {
                generation: self.generation,
                layout: preset.system.layout(),
                strobe_period_s: strobe,
            });
            self.preset = preset;
        } else {
            self.restart(preset);
        }
    }

    /// One tick of a running simulation; returns `false` when the window is gone.
    fn tick(&mut self) -> bool {
        let now = Instant::now();
        let wall_dt = (now - self.last_tick).as_secs_f64().min(MAX_TICK_WALL_S);
        self.last_tick = now;
        if self.sim.is_none() {
            return true;
        }
        let t = self.delivered_s;
        let target = match self.speed {
            Speed::Factor(f) => {
                self.model_clock_s = (self.model_clock_s + f * wall_dt).max(t - 1.0);
                self.model_clock_s
            }
            Speed::Max => {
                self.model_clock_s = t + self.max_chunk_model_s;
                self.model_clock_s
            }
        };
        let started = Instant::now();
        if target > t && !self.advance_to(target) {
            return false;
        }
        let spent = started.elapsed().as_secs_f64();
        match self.speed {
            Speed::Max => {
                // Aim at ~20 ms of work per chunk, then leave the window its frames.
                let ratio = (MAX_SPEED_CHUNK_WALL_S / spent.max(1e-6)).clamp(0.5, 2.0);
                self.max_chunk_model_s = (self.max_chunk_model_s * ratio).clamp(1e-4, 1e4);
                let pause = self.pacer.pause(self.clock.interval_s(), spent);
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
            }
            Speed::Factor(_) => {
                if let Some(rest) = TICK.checked_sub(started.elapsed()) {
                    std::thread::sleep(rest);
                }
            }
        }
        true
    }

    /// Advances to `target` and sends the samples; `false` when the window is gone.
    fn advance_to(&mut self, target: f64) -> bool {
        let generation = self.generation;
        let t0 = self.delivered_s;
        let Some(sim) = self.sim.as_mut() else {
            return true;
        };
        let started = Instant::now();
        let mut chunk = Chunk {
            generation,
            ..Chunk::default()
        };
        let result = sim.advance(target, &mut chunk);
        // Rows are sent up to the target; the integrator may have stepped beyond it.
        chunk.t_s = sim.time_s().min(target);
        chunk.model_s = chunk.t_s - t0;
        self.delivered_s = chunk.t_s;
        chunk.wall_s = started.elapsed().as_secs_f64();
        if !self.send(WorkerMsg::Chunk(chunk)) {
            return false;
        }
        if let Err(e) = result {
            self.running = false;
            return self.send(WorkerMsg::Failed {
                generation,
                message: e.to_string(),
            });
        }
        true
    }
}

/// Why going from `old` to `new` needs a restart, if it does: another system or law on some
/// contact, changed noise or run settings, or a changed parameter whose metadata says it
/// restarts the run (initial conditions, element counts). Everything else is offered to the
/// running model, which may still refuse ([`Runner::reconfigure`]).
pub fn restart_reason(old: &Preset, new: &Preset) -> Option<String> {
    if old.system.variant() != new.system.variant() {
        return Some("another system".into());
    }
    if old.noise != new.noise {
        return Some("the load noise changed".into());
    }
    if old.run != new.run {
        return Some("the run settings changed".into());
    }
    if let Some(key) = changed_restart_key(old.system.params(), new.system.params()) {
        return Some(format!("system.{key} changed"));
    }
    let (old_laws, new_laws) = (old.contact_laws(), new.contact_laws());
    if old_laws.len() != new_laws.len() {
        return Some("another number of contacts".into());
    }
    for (i, (a, b)) in old_laws.iter().zip(&new_laws).enumerate() {
        if a.variant() != b.variant() {
            return Some(format!("contact {} has another law", i + 1));
        }
        if let Some(key) = changed_restart_key(a.params(), b.params()) {
            return Some(format!("contact {}: law.{key} changed", i + 1));
        }
    }
    None
}

/// The first parameter flagged `restart` whose value differs.
fn changed_restart_key(old: &dyn ParamSet, new: &dyn ParamSet) -> Option<&'static str> {
    old.meta()
        .iter()
        .filter(|m| m.restart)
        .find(|m| old.get(m.key) != new.get(m.key))
        .map(|m| m.key)
}

/// Forcing period when the system is periodically forced (the belt joint's belt turn).
pub fn strobe_period_s(preset: &Preset) -> Option<f64> {
    preset.system.forcing_period_s()
}
