/* The UI's hooks for the command line (`view`, `plot`): NULL in a build
 * without the UI, where those commands say so. */
#ifndef BOUNCE_CLI_UI_H
#define BOUNCE_CLI_UI_H

#include "cli/cli.h"

const struct cli_ui *cli_ui_hooks(void);

#endif
