#!/bin/sh
# SessionStart / UserPromptSubmit: plain stdout becomes context for the model.
cat >/dev/null
echo "House rule: keep answers short."
