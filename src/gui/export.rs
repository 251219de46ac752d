//! File operations of the window: open/save presets, export traces (CSV) and plots (PNG). The
//! `…_dialog` methods ask for a file ([`asking`](super::asking)); the `…_to` methods act on
//! the answer.
//! Every failure becomes a message; the session and existing files stay intact (writes are
//! atomic).

use std::io::Write;
use std::path::{Path, PathBuf};

use eframe::egui;

use super::TriboApp;
use super::dialogs::DialogKind;
use super::plots::window_range;
use crate::cli::format_number;
use crate::preset::Preset;
use crate::util::atomic_write::write_atomically;

impl TriboApp {
    /// File → Open preset….
    pub(in crate::gui) fn open_preset_dialog(&mut self, ctx: &egui::Context) {
        self.ask_file(ctx, DialogKind::OpenPreset, "");
    }

    /// Opens a preset file; on error shows `file:line:col: field: message` and changes nothing.
    pub(super) fn open_preset_file(&mut self, path: &Path) {
        match Preset::load(path) {
            Ok(p) => self.load_preset(p, path.display().to_string()),
            Err(e) => self.show_error("Cannot open the preset", e.to_string()),
        }
    }

    /// File → Save preset as….
    pub(in crate::gui) fn save_preset_dialog(&mut self, ctx: &egui::Context) {
        let suggested = format!("{}.ron", file_stem(&self.session.preset.name));
        self.ask_file(ctx, DialogKind::SavePreset, &suggested);
    }

    /// Saves the preset to the chosen file (atomically); it becomes the reference.
    pub(in crate::gui) fn save_preset_to(&mut self, path: PathBuf) {
        let path = with_extension(path, "ron");
        match self.session.preset.save(&path) {
            Ok(()) => {
                self.session.reference = self.session.preset.clone();
                self.session.source = path.display().to_string();
            }
            Err(e) => self.show_error("Cannot save the preset", e.to_string()),
        }
    }

    /// File → Export traces (CSV): the samples of the shown window.
    pub(in crate::gui) fn export_csv_dialog(&mut self, ctx: &egui::Context) {
        if self.history.is_empty() {
            self.show_info("Nothing to export", "No samples yet.".into());
            return;
        }
        let suggested = format!("{}.csv", file_stem(&self.session.preset.name));
        self.ask_file(ctx, DialogKind::ExportCsv, &suggested);
    }

    /// Writes the samples of the shown window to the chosen file (atomically).
    pub(in crate::gui) fn export_csv_to(&mut self, path: PathBuf) {
        let path = with_extension(path, "csv");
        let range = window_range(self);
        let h = &self.history;
        // The preset that made the run, as `#` comment lines (readers of tribolab's CSV skip
        // them): the file says how to make it again.
        let preset = self.session.preset.to_ron().unwrap_or_default();
        let result = write_atomically(&path, |w: &mut dyn Write| {
            writeln!(
                w,
                "# tribolab {}: the preset of this run",
                env!("CARGO_PKG_VERSION")
            )?;
            for line in preset.lines() {
                writeln!(w, "# {line}")?;
            }
            writeln!(w, "{}", h.names().join(","))?;
            let mut line = String::new();
            for i in range {
                line.clear();
                for (k, v) in h.row(i).iter().enumerate() {
                    if k > 0 {
                        line.push(',');
                    }
                    line.push_str(&format_number(*v));
                }
                line.push('\n');
                w.write_all(line.as_bytes())?;
            }
            Ok(())
        });
        if let Err(e) = result {
            self.show_error(
                "Cannot export the traces",
                format!("{}: {e}", path.display()),
            );
        }
    }

    /// File → Export plots (PNG).
    pub(in crate::gui) fn export_png_dialog(&mut self, ctx: &egui::Context) {
        let suggested = format!("{}.png", file_stem(&self.session.preset.name));
        self.ask_file(ctx, DialogKind::ExportPng, &suggested);
    }

    /// Asks for a screenshot of the next frame, saved to `path` when it arrives.
    pub(in crate::gui) fn export_png_to(&mut self, path: PathBuf, ctx: &egui::Context) {
        let (tx, rx) = std::sync::mpsc::channel();
        let waker = ctx.clone();
        ctx.request_screenshot(move |image| {
            let _ = tx.send(image);
            waker.request_repaint();
        });
        self.pending_png = Some((with_extension(path, "png"), rx));
    }

    /// Saves a requested screenshot, cropped to the plots.
    pub(super) fn take_screenshot(&mut self, ctx: &egui::Context) {
        let Some((path, rx)) = &self.pending_png else {
            return;
        };
        let Ok(image) = rx.try_recv() else {
            return;
        };
        let path = path.clone();
        self.pending_png = None;
        let ppp = ctx.pixels_per_point();
        let crop = self.plot_rect.unwrap_or(egui::Rect::EVERYTHING);
        let region = image.region(&crop, Some(ppp));
        if let Err(e) = save_png(&path, &region) {
            self.show_error(
                "Cannot export the plots",
                format!("{}: {e}", path.display()),
            );
        }
    }
}

impl TriboApp {
    /// The regime map's *Save table (CSV)…*.
    pub(in crate::gui) fn save_map_csv_dialog(&mut self, ctx: &egui::Context) {
        let suggested = format!("{}_map.csv", file_stem(&self.session.preset.name));
        self.ask_file(ctx, DialogKind::SaveMapCsv, &suggested);
    }

    /// The regime map's *Save figure (SVG)…*.
    pub(in crate::gui) fn save_map_figure_dialog(&mut self, ctx: &egui::Context) {
        let suggested = format!("{}_map.svg", file_stem(&self.session.preset.name));
        self.ask_file(ctx, DialogKind::SaveMapFigure, &suggested);
    }

    /// Writes the finished map as the CLI's `tribolab map` writes it (atomically).
    pub fn save_map_csv_to(&mut self, path: PathBuf) {
        let path = with_extension(path, "csv");
        let Some(view) = self.lab.regime_map() else {
            return;
        };
        let Some(cells) = view.cells.iter().cloned().collect::<Option<Vec<_>>>() else {
            self.show_info(
                "The map is not finished",
                "Its table is saved once every cell has run; the figure can be saved now.".into(),
            );
            return;
        };
        let result = write_atomically(&path, |w: &mut dyn Write| {
            crate::analysis::regime_map::csv::write(
                w,
                &view.preset,
                &view.spec,
                &view.amplitude_unit,
                &cells,
            )
        });
        if let Err(e) = result {
            self.show_error("Cannot save the map", format!("{}: {e}", path.display()));
        }
    }

    /// Writes the map (as far as it has run) as an SVG figure (atomically).
    pub fn save_map_figure_to(&mut self, path: PathBuf) {
        let path = with_extension(path, "svg");
        let Some(view) = self.lab.regime_map() else {
            return;
        };
        let cells: Vec<_> = view.cells.iter().flatten().cloned().collect();
        let boundary = (view.boundary_symbol.clone(), view.boundary.clone());
        let text =
            crate::analysis::regime_map::figure::svg(&view.preset, &view.spec, &cells, &boundary);
        if let Err(e) = write_atomically(&path, |w: &mut dyn Write| w.write_all(text.as_bytes())) {
            self.show_error("Cannot save the figure", format!("{}: {e}", path.display()));
        }
    }
}

fn save_png(path: &Path, img: &egui::ColorImage) -> std::io::Result<()> {
    let [w, h] = img.size;
    let rgba: Vec<u8> = img.pixels.iter().flat_map(|c| c.to_array()).collect();
    let buffer = image::RgbaImage::from_raw(w as u32, h as u32, rgba)
        .ok_or_else(|| std::io::Error::other("screenshot has an inconsistent size"))?;
    write_atomically(path, |w: &mut dyn Write| {
        let mut bytes = std::io::Cursor::new(Vec::new());
        buffer
            .write_to(&mut bytes, image::ImageFormat::Png)
            .map_err(std::io::Error::other)?;
        w.write_all(bytes.get_ref())
    })
}

pub(super) fn with_extension(mut path: PathBuf, ext: &str) -> PathBuf {
    if path.extension().is_none() {
        path.set_extension(ext);
    }
    path
}

/// A file name from a preset name.
pub(super) fn file_stem(name: &str) -> String {
    // Letters and digits kept (lower case), every run of anything else one `_`:
    // "S1 bench, 19.36 rpm, Stribeck" → "s1_bench_19_36_rpm_stribeck".
    let mut s = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.is_empty() && !s.ends_with('_') {
            s.push('_');
        }
    }
    let s = s.trim_end_matches('_').to_string();
    if s.is_empty() { "tribolab".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn suggested_file_names_are_plain() {
        assert_eq!(
            file_stem("S1 bench, 19.36 rpm, Stribeck"),
            "s1_bench_19_36_rpm_stribeck"
        );
        assert_eq!(file_stem("  LuGre (Canudas 1995) "), "lugre_canudas_1995");
        assert_eq!(file_stem("Hénon map"), "hénon_map");
        assert_eq!(file_stem("—"), "tribolab");
    }
}
