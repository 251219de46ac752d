//! The friction laws of a system's contacts: one law instance per contact, each with its own
//! states, mode and memory. Their states sit back to back in one block of the system's state
//! vector and their events are numbered one after another, so a system with N contacts asks
//! this set instead of keeping N sets of offsets itself.

use super::Restart;
use crate::integrate::{Column, Role};
use crate::laws::{Contact, FrictionLaw, Law, LawConfig, LawSwitch};

/// The laws of every contact of a system.
#[derive(Clone, Debug)]
pub struct ContactLaws {
    laws: Vec<Law>,
    /// Start of each law's states in the block, plus the block length at the end.
    state_at: Vec<usize>,
    /// First event index of each law, plus the event count at the end.
    event_at: Vec<usize>,
    /// Whether any law has an after-step hook.
    after_step: bool,
}

impl ContactLaws {
    /// One law per configuration, in contact order.
    pub fn new(configs: &[LawConfig]) -> Self {
        Self::from_laws(configs.iter().map(LawConfig::build).collect())
    }

    fn from_laws(laws: Vec<Law>) -> Self {
        let mut state_at = vec![0];
        let mut event_at = vec![0];
        for law in &laws {
            state_at.push(state_at[state_at.len() - 1] + law.n_states());
            event_at.push(event_at[event_at.len() - 1] + law.n_events());
        }
        let after_step = laws.iter().any(FrictionLaw::has_after_step);
        Self {
            laws,
            state_at,
            event_at,
            after_step,
        }
    }

    /// Number of contacts.
    pub fn len(&self) -> usize {
        self.laws.len()
    }

    /// Whether there are no contacts.
    pub fn is_empty(&self) -> bool {
        self.laws.is_empty()
    }

    /// The law of contact `i`.
    pub fn law(&self, i: usize) -> &Law {
        &self.laws[i]
    }

    /// The law of contact `i`, mutable (a system that keeps each contact's states in its own
    /// segment of the state vector calls the law directly).
    pub fn law_mut(&mut self, i: usize) -> &mut Law {
        &mut self.laws[i]
    }

    /// Every law, in contact order.
    pub fn laws(&self) -> &[Law] {
        &self.laws
    }

    /// Total number of law states.
    pub fn n_states(&self) -> usize {
        self.state_at[self.laws.len()]
    }

    /// Total number of law events.
    pub fn n_events(&self) -> usize {
        self.event_at[self.laws.len()]
    }

    /// Whether any law has an after-step hook.
    pub fn has_after_step(&self) -> bool {
        self.after_step
    }

    /// Index range of contact `i`'s states in the block.
    pub fn state_range(&self, i: usize) -> std::ops::Range<usize> {
        self.state_at[i]..self.state_at[i + 1]
    }

    /// Index range of contact `i`'s events.
    pub fn event_range(&self, i: usize) -> std::ops::Range<usize> {
        self.event_at[i]..self.event_at[i + 1]
    }

    /// The contact owning event `index` and its index among that law's events.
    pub fn event_owner(&self, index: usize) -> Option<(usize, usize)> {
        let i = self
            .event_at
            .partition_point(|&e| e <= index)
            .checked_sub(1)?;
        (i < self.laws.len()).then(|| (i, index - self.event_at[i]))
    }

    /// Initial law states into the block.
    pub fn initial_states(&self, block: &mut [f64]) {
        for (i, law) in self.laws.iter().enumerate() {
            law.initial_states(&mut block[self.state_range(i)]);
        }
    }

    /// Typical magnitudes of the law states.
    pub fn state_scales(&self, block: &mut [f64]) {
        for (i, law) in self.laws.iter().enumerate() {
            law.state_scales(&mut block[self.state_range(i)]);
        }
    }

    /// Friction force of contact `i` with its state rates.
    #[inline]
    pub fn eval(&self, i: usize, c: &Contact, block: &[f64], d_block: &mut [f64]) -> f64 {
        let r = self.state_range(i);
        self.laws[i].eval(c, &block[r.clone()], &mut d_block[r])
    }

    /// Friction force of contact `i` (state rates discarded).
    pub fn force(&self, i: usize, c: &Contact, block: &[f64]) -> f64 {
        let r = self.state_range(i);
        let mut ds = vec![0.0; r.len()];
        self.laws[i].eval(c, &block[r], &mut ds)
    }

    /// Event functions of contact `i` into its slots of `g` (all events of all contacts).
    pub fn events(&self, i: usize, c: &Contact, block: &[f64], g: &mut [f64]) {
        self.laws[i].events(c, &block[self.state_range(i)], &mut g[self.event_range(i)]);
    }

    /// Chooses contact `i`'s initial mode.
    pub fn initialize(&mut self, i: usize, c: &Contact, block: &mut [f64]) -> LawSwitch {
        let r = self.state_range(i);
        self.laws[i].initialize(c, &mut block[r])
    }

    /// Continues contact `i` after a parameter change ([`FrictionLaw::resume`]).
    pub fn resume(&mut self, i: usize, c: &Contact, block: &mut [f64]) -> LawSwitch {
        let r = self.state_range(i);
        self.laws[i].resume(c, &mut block[r])
    }

    /// Handles event `local` of contact `i`.
    pub fn apply_event(
        &mut self,
        i: usize,
        local: usize,
        c: &Contact,
        block: &mut [f64],
    ) -> LawSwitch {
        let r = self.state_range(i);
        self.laws[i].apply_event(local, c, &mut block[r])
    }

    /// After-step hook of contact `i`; `true` if it changed states or mode.
    pub fn after_step(&mut self, i: usize, c: &Contact, block: &mut [f64]) -> bool {
        let r = self.state_range(i);
        self.laws[i].after_step(c, &mut block[r])
    }

    /// Whether contact `i` sticks at `c`, when its law decides it
    /// ([`FrictionLaw::stuck_at`]).
    pub fn stuck(&self, i: usize, c: &Contact) -> Option<bool> {
        self.laws[i].stuck_at(c)
    }

    /// Output columns of every law state, named `<state><suffix(i)>` with
    /// [`Role::LawState`].
    pub fn state_columns(&self, suffix: impl Fn(usize) -> String) -> Vec<Column> {
        let mut out = Vec::with_capacity(self.n_states());
        for (i, law) in self.laws.iter().enumerate() {
            for (k, c) in law.state_columns().into_iter().enumerate() {
                let s = suffix(i);
                out.push(
                    Column::new(format!("{}{s}", c.name), c.unit)
                        .symbol(format!("{}{s}", c.symbol))
                        .role(Role::LawState {
                            contact: i,
                            index: k,
                        }),
                );
            }
        }
        out
    }

    /// Takes new law parameters in place, keeping every law's states, mode and memory.
    /// Refuses (leaving the laws unchanged) when a contact gets another law or its law another
    /// number of states or events.
    pub fn set_params(&mut self, configs: &[LawConfig]) -> Result<(), Restart> {
        check_same_structure(&self.laws, configs)?;
        for (law, config) in self.laws.iter_mut().zip(configs) {
            law.set_params(config);
        }
        Ok(())
    }
}

/// Whether `configs` give every running law its own kind of law with the same states, events
/// and reversal kink (what a live change may not alter).
pub fn check_same_structure(laws: &[Law], configs: &[LawConfig]) -> Result<(), Restart> {
    if laws.len() != configs.len() {
        return Err(Restart::Changed(format!(
            "{} contact law(s) given for {} contact(s)",
            configs.len(),
            laws.len()
        )));
    }
    for (i, (law, config)) in laws.iter().zip(configs).enumerate() {
        let fresh = config.build();
        if law.variant() != config.variant() {
            return Err(Restart::Changed(format!(
                "contact {}: the friction law changed",
                i + 1
            )));
        }
        if fresh.n_states() != law.n_states()
            || fresh.n_events() != law.n_events()
            || fresh.kinks_at_reversal() != law.kinks_at_reversal()
            || fresh.has_after_step() != law.has_after_step()
        {
            return Err(Restart::Changed(format!(
                "contact {}: the law's states or events changed",
                i + 1
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::find_law;

    fn config(key: &str) -> LawConfig {
        find_law(key)
            .map(|i| (i.default_config)())
            .unwrap_or_default()
    }

    #[test]
    fn offsets_follow_each_law() {
        // LuGre: 1 state, 1 reversal kink, no events; GMS: M states, M + 1 events.
        let set = ContactLaws::new(&[config("lugre"), config("gms"), config("static_kinetic")]);
        let m = set.law(1).n_states();
        assert_eq!(set.state_range(0), 0..1);
        assert_eq!(set.state_range(1), 1..1 + m);
        assert_eq!(set.state_range(2), 1 + m..1 + m);
        assert_eq!(set.n_states(), 1 + m);
        let e1 = set.law(1).n_events();
        assert_eq!(set.event_range(1), 0..e1);
        assert_eq!(set.event_owner(0), Some((1, 0)));
        assert_eq!(set.event_owner(e1), Some((2, 0)));
        assert_eq!(set.event_owner(e1 + 1), None);
        assert!(set.has_after_step());
    }

    #[test]
    fn a_live_change_keeps_the_structure_or_refuses() {
        let mut set = ContactLaws::new(&[config("lugre"), config("lugre")]);
        let mut changed = config("lugre");
        changed.params_mut().set("f_c", 0.5).unwrap();
        let before = set.law(1).steady_force(1.0, 1.0, 1.0);
        set.set_params(&[config("lugre"), changed]).unwrap();
        assert_ne!(
            set.law(1).steady_force(1.0, 1.0, 1.0),
            before,
            "the second law took f_c"
        );
        let e = set
            .set_params(&[config("lugre"), config("dahl")])
            .unwrap_err();
        assert!(e.to_string().contains("contact 2"), "{e}");
    }
}
