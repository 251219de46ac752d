//! For a projector: presentation mode (F5 hides the side panel so the plots take the window),
//! the size of everything (View → UI size, also Ctrl + / Ctrl − / Ctrl 0; persisted), a light
//! theme for bright rooms and paper, and no text smaller than the body text.

use eframe::egui;

use super::TriboApp;

/// Smallest and largest UI size (egui zoom factor).
pub const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.5;

/// Every text style at least as large as the body text (egui's Small style is used for units,
/// hints and equations; on a projector they must stay readable).
pub fn readable_text(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        let body = style
            .text_styles
            .get(&egui::TextStyle::Body)
            .map_or(14.0, |f| f.size);
        for (text_style, font) in style.text_styles.iter_mut() {
            if *text_style != egui::TextStyle::Heading && font.size < body {
                font.size = body;
            }
        }
    });
}

impl TriboApp {
    /// Applies the persisted UI size and theme, and keeps the UI size in step with egui's own
    /// Ctrl +/− zoom.
    pub(super) fn apply_view_style(&mut self, ctx: &egui::Context) {
        let view = &mut self.session.view;
        let wanted = view
            .ui_scale
            .clamp(*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end());
        if (self.applied_ui_scale - wanted).abs() > 1e-4 {
            ctx.set_zoom_factor(wanted);
            self.applied_ui_scale = wanted;
        } else {
            // Ctrl + / Ctrl − changed the zoom: remember it, within the range.
            let now = ctx.zoom_factor();
            if (now - self.applied_ui_scale).abs() > 1e-4 {
                let kept = now.clamp(*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end());
                if kept != now {
                    ctx.set_zoom_factor(kept);
                }
                view.ui_scale = kept;
                self.applied_ui_scale = kept;
            }
        }
        let theme = if view.light_theme {
            egui::Theme::Light
        } else {
            egui::Theme::Dark
        };
        if ctx.theme() != theme {
            ctx.set_theme(theme);
        }
    }

    /// Turns presentation mode on or off.
    pub fn toggle_presentation(&mut self) {
        self.presentation = !self.presentation;
    }

    /// Whether the window is in presentation mode.
    pub fn presenting(&self) -> bool {
        self.presentation
    }
}

/// The View menu's projector settings.
pub fn menu(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut presenting = app.presentation;
    if ui
        .checkbox(&mut presenting, "Presentation mode (F5)")
        .on_hover_text("Hide the side panel so the plots fill the window")
        .changed()
    {
        app.toggle_presentation();
    }
    // The size changes when the slider is let go (the zoom would move the slider under the
    // pointer while it is dragged).
    let id = egui::Id::unique("ui_size_being_dragged");
    let mut scale = ui
        .data(|d| d.get_temp::<f32>(id))
        .unwrap_or(app.session.view.ui_scale);
    let r = ui
        .add(
            egui::Slider::new(&mut scale, UI_SCALE_RANGE)
                .fixed_decimals(2)
                .suffix("×")
                .text("UI size"),
        )
        .on_hover_text("Size of text and controls, for a projector (also Ctrl + and Ctrl −)");
    if r.dragged() {
        ui.data_mut(|d| d.insert_temp(id, scale));
    } else {
        ui.data_mut(|d| d.remove::<f32>(id));
        if r.changed() || r.drag_stopped() {
            app.session.view.ui_scale = scale;
        }
    }
    ui.horizontal(|ui| {
        ui.label("Theme");
        ui.radio_value(&mut app.session.view.light_theme, false, "Dark");
        ui.radio_value(&mut app.session.view.light_theme, true, "Light");
    });
}
