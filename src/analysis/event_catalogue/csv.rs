//! The catalogue as CSV.

use std::io::Write;

use super::SlipEvent;

/// Writes the catalogue as CSV with the header
/// `start_s,end_s,duration_s,epicentre,blocks,first_block,last_block,potency_m,magnitude,peak_slip_rate_mps,force_drop_n,truncated`.
/// Block indices are 1-based (as users count blocks); `truncated` is 0 or 1; numbers are written
/// in Rust's shortest round-trip form, a zero potency's magnitude as `-inf`.
pub fn write_csv(events: &[SlipEvent], w: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        w,
        "start_s,end_s,duration_s,epicentre,blocks,first_block,last_block,potency_m,magnitude,\
         peak_slip_rate_mps,force_drop_n,truncated"
    )?;
    for e in events {
        let (start, end, dur) = (e.start_s, e.end_s, e.duration_s());
        let (epi, first, last) = (e.epicentre + 1, e.first_block + 1, e.last_block + 1);
        let (p, m, v, df) = (
            e.potency_m,
            e.magnitude,
            e.peak_slip_rate_mps,
            e.force_drop_n,
        );
        let (blocks, cut) = (e.blocks, u8::from(e.truncated));
        writeln!(
            w,
            "{start},{end},{dur},{epi},{blocks},{first},{last},{p},{m},{v},{df},{cut}"
        )?;
    }
    Ok(())
}
