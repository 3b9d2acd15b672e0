/* The one door from the visualizer into the engine: every engine header the
 * UI needs is included here and nowhere else in ui/, so what the UI depends
 * on is one list (tests/lint.sh keeps it that way). The UI only reads engine
 * state through these APIs. */
#ifndef BOUNCE_UI_ENGINE_H
#define BOUNCE_UI_ENGINE_H

#include "base/error.h"
#include "base/input_file.h"
#include "mem/memsys.h"
#include "mem/coherence.h"
#include "load/scenario.h"
#include "report/report_notes.h"
#include "run/runner.h"
#include "report/report_source.h"
#include "report/symbol_at.h"

#endif
