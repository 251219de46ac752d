//! A spatial system's drawing, for front ends: points (fixed, or moving with coordinates in
//! output columns of role [`Role::ScenePoint`](crate::integrate::Role::ScenePoint)) and the
//! parts between them — rods, balls, a spinning disc, an arrow. A window paints it in 3-D from
//! any direction without knowing which system it draws.

/// A point of the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScenePoint {
    /// Fixed in space, `[x, y, z]` [m].
    Fixed([f64; 3]),
    /// Moving: its coordinates are the columns with role `ScenePoint { point, axis }`.
    Moving(usize),
}

/// One part of the drawing.
#[derive(Clone, Debug, PartialEq)]
pub enum ScenePart {
    /// A rigid link between two points, drawn `width_m` thick.
    Rod {
        /// One end.
        a: ScenePoint,
        /// The other end.
        b: ScenePoint,
        /// Thickness [m].
        width_m: f64,
    },
    /// A ball (or a joint when small).
    Ball {
        /// Centre.
        centre: ScenePoint,
        /// Radius [m].
        radius_m: f64,
    },
    /// A flat disc spinning about its normal (an obstacle or a table); a spoke shows the spin.
    Disc {
        /// Centre [m].
        centre: [f64; 3],
        /// Unit normal.
        normal: [f64; 3],
        /// Radius [m].
        radius_m: f64,
        /// Spin rate about the normal [rad/s]: the spoke's angle is `rate·t`.
        spin_rad_s: f64,
    },
    /// An arrow (a force), drawn while its ends differ.
    Arrow {
        /// Tail.
        from: ScenePoint,
        /// Head.
        to: ScenePoint,
    },
}

/// A spatial drawing: its parts and the size of the region they move in.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The parts, drawn back to front.
    pub parts: Vec<ScenePart>,
    /// The point the view turns about [m].
    pub centre_m: [f64; 3],
    /// Radius of a sphere about `centre_m` that holds the scene [m] (sets the drawing scale).
    pub extent_m: f64,
    /// What an arrow means, for a legend (`contact force, 1 mm per newton`).
    pub arrow_meaning: String,
}
