#!/usr/bin/env python3
"""A Python host talking to `agent-hooks serve` (standard library only).

It starts the server once, sends two PreToolUse requests at the same time and matches the
answers by id (they may come back in any order), then closes stdin: the server answers what is
running and exits 0.

    AGENT_HOOKS="agent-hooks" python3 examples/serve/client.py

AGENT_HOOKS is the command that starts the CLI (default: agent-hooks). Run from the examples/
folder, so that the server reads examples/hooks.json.
"""
import json
import os
import shlex
import subprocess
import sys

command = shlex.split(os.environ.get("AGENT_HOOKS", "agent-hooks")) + ["serve", "--settings", "hooks.json"]
server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

hello = json.loads(server.stdout.readline())
if hello.get("type") != "hello" or hello.get("protocol") != 1:
    sys.exit(f"unexpected hello line: {hello}")

requests = {
    "rm": {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
    "ls": {"tool_name": "Bash", "tool_input": {"command": "ls"}},
}
for request_id, payload in requests.items():
    server.stdin.write(json.dumps({"id": request_id, "event": "PreToolUse", "payload": payload}) + "\n")
server.stdin.flush()

answers = {}
while len(answers) < len(requests):
    line = json.loads(server.stdout.readline())
    if line.get("type") is not None:
        continue  # hello, async results: not answers to a request
    answers[line["id"]] = line

server.stdin.close()
status = server.wait()

for request_id in requests:
    answer = answers[request_id]
    if "error" in answer:
        sys.exit(f"{request_id}: error {answer['error']}")
    outcome = answer["outcome"]
    print(f"{request_id}: blocked={str(outcome['blocked']).lower()}" + (f" reason={outcome['reason']}" if outcome["blocked"] else ""))
print(f"server exited {status}")
sys.exit(0 if status == 0 and answers["rm"]["outcome"]["blocked"] and not answers["ls"]["outcome"]["blocked"] else 1)
