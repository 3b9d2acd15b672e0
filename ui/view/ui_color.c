/* The visualizer's palette: one place for every colour so that a cell, its
 * legend entry and the screenshot test agree. MESI colours follow the usual
 * heat intuition (M hot red, E amber, S calm green, I empty); activities use
 * a separate family so a core tile is never mistaken for a line cell. */
#include "config.h"
#include "ui_int.h"

#define RGB(r, g, b) {r, g, b, 255}

const SDL_Color ui_col_bg = RGB(0x14, 0x17, 0x1c);
const SDL_Color ui_col_panel = RGB(0x1c, 0x21, 0x28);
const SDL_Color ui_col_panel2 = RGB(0x24, 0x2a, 0x33);
const SDL_Color ui_col_grid = RGB(0x34, 0x3c, 0x47);
const SDL_Color ui_col_text = RGB(0xdc, 0xe2, 0xea);
const SDL_Color ui_col_dim = RGB(0x8b, 0x95, 0xa3);
const SDL_Color ui_col_accent = RGB(0x4d, 0xab, 0xf7);
const SDL_Color ui_col_owner = RGB(0xff, 0xff, 0xff);
const SDL_Color ui_col_mark = RGB(0xff, 0xe0, 0x66);
/* Timeline marks: a hue no activity, MESI state or transfer has. */
const SDL_Color ui_col_marker = RGB(0x20, 0xe3, 0xd2);

/* The screenshot test looks for these exact values: keep it in sync.
 * A protocol's table names each state's hue (coherence.h). */
const SDL_Color ui_col_hue[COH_NHUES] = {
	[COH_HUE_INVALID] = RGB(0x3a, 0x41, 0x4b),
	[COH_HUE_SHARED] = RGB(0x2f, 0x9e, 0x44),
	[COH_HUE_EXCLUSIVE] = RGB(0xf0, 0x8c, 0x00),
	[COH_HUE_MODIFIED] = RGB(0xe0, 0x31, 0x31),
	[COH_HUE_FORWARD] = RGB(0x10, 0x98, 0xad),
	[COH_HUE_OWNED] = RGB(0x9c, 0x36, 0xb5),
	[COH_HUE_GRANTED] = RGB(0xe6, 0x49, 0x80),
};

SDL_Color ui_state_color(const struct coh_protocol *p, int s)
{
	return ui_col_hue[coh_has_state(p, (unsigned)s) ? p->state[s].hue : COH_HUE_INVALID];
}

const char *ui_state_name(const struct coh_protocol *p, int s)
{
	return coh_has_state(p, (unsigned)s) ? p->state[s].name : ms_state_name((enum ms_state)s);
}

const SDL_Color ui_col_act[CORE_NACTS] = {
	[CORE_ACT_BUSY] = RGB(0x4c, 0x6e, 0xf5),
	[CORE_ACT_L1_HIT] = RGB(0x74, 0xc0, 0xfc),
	[CORE_ACT_MISS] = RGB(0xff, 0x6b, 0x6b),
	[CORE_ACT_SB_STALL] = RGB(0xff, 0xa9, 0x4d),
	[CORE_ACT_LOCKED] = RGB(0xf7, 0x83, 0xac),
	[CORE_ACT_SPIN] = RGB(0xff, 0xd4, 0x3b),
	[CORE_ACT_IRQ] = RGB(0xb1, 0x97, 0xfc),
	[CORE_ACT_HALTED] = RGB(0x49, 0x50, 0x57),
	[CORE_ACT_IDLE] = RGB(0x2e, 0x34, 0x3c),
};

const SDL_Color ui_col_xfer[UI_NXFERS] = {
	[UI_XFER_SHARE] = RGB(0x8c, 0xe9, 0x9a),
	[UI_XFER_RFO] = RGB(0xff, 0x8a, 0x5c),
	[UI_XFER_INVAL] = RGB(0xe9, 0xec, 0xef),
};

const char *const ui_xfer_name[UI_NXFERS] = {
	"read share", "ownership (RFO)", "invalidation",
};

SDL_Color ui_mix(SDL_Color a, SDL_Color b, float t)
{
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	SDL_Color c = {
		(Uint8)(a.r + (b.r - a.r) * t), (Uint8)(a.g + (b.g - a.g) * t),
		(Uint8)(a.b + (b.b - a.b) * t), (Uint8)(a.a + (b.a - a.a) * t),
	};
	return c;
}

/* Dark blue through purple and red to yellow: a perceptually ordered ramp
 * that stays readable on the dark background at its low end. */
SDL_Color ui_heat_color(float x)
{
	static const SDL_Color stop[] = {
		RGB(0x23, 0x3a, 0x6e), RGB(0x4a, 0x33, 0x8c), RGB(0x9c, 0x2f, 0x8a),
		RGB(0xe0, 0x4a, 0x4a), RGB(0xf8, 0x9b, 0x29), RGB(0xfc, 0xe8, 0x6a),
	};
	const int n = sizeof stop / sizeof stop[0];
	if (!(x > 0))
		return stop[0];
	if (x >= 1)
		return stop[n - 1];
	float p = x * (n - 1);
	int i = (int)p;
	return ui_mix(stop[i], stop[i + 1], p - i);
}

/* Opaque colours draw without blending: the software renderer's blended
 * fill is per pixel and was most of a frame (the panels are large). */
void ui_set_color(SDL_Renderer *r, SDL_Color c)
{
	SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
	SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}
