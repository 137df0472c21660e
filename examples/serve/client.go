// A Go host talking to `agent-hooks serve` (standard library only).
//
// It starts the server once, sends two PreToolUse requests at the same time and matches the
// answers by id (they may come back in any order), then closes stdin: the server answers what is
// running and exits 0.
//
//	AGENT_HOOKS="agent-hooks" go run examples/serve/client.go
//
// AGENT_HOOKS is the command that starts the CLI (default: agent-hooks). Run from the examples/
// folder, so that the server reads examples/hooks.json.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

type request struct {
	ID      string         `json:"id"`
	Event   string         `json:"event"`
	Payload map[string]any `json:"payload"`
}

type line struct {
	Type    string `json:"type"`
	ID      any    `json:"id"`
	Error   string `json:"error"`
	Outcome *struct {
		Blocked bool    `json:"blocked"`
		Reason  *string `json:"reason"`
	} `json:"outcome"`
	Protocol int `json:"protocol"`
}

func main() {
	command := strings.Fields(os.Getenv("AGENT_HOOKS"))
	if len(command) == 0 {
		command = []string{"agent-hooks"}
	}
	command = append(command, "serve", "--settings", "hooks.json")
	server := exec.Command(command[0], command[1:]...)
	server.Stderr = os.Stderr
	stdin, _ := server.StdinPipe()
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the server:", err)
		os.Exit(1)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 64<<20)

	var hello line
	if !lines.Scan() || json.Unmarshal(lines.Bytes(), &hello) != nil || hello.Type != "hello" || hello.Protocol != 1 {
		fmt.Fprintln(os.Stderr, "unexpected hello line:", lines.Text())
		os.Exit(1)
	}

	requests := []request{
		{ID: "rm", Event: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}},
		{ID: "ls", Event: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}},
	}
	encoder := json.NewEncoder(stdin)
	for _, r := range requests {
		if err := encoder.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "cannot write a request:", err)
			os.Exit(1)
		}
	}

	answers := map[string]line{}
	for len(answers) < len(requests) && lines.Scan() {
		var answer line
		if err := json.Unmarshal(lines.Bytes(), &answer); err != nil {
			fmt.Fprintln(os.Stderr, "not a JSON line:", lines.Text())
			os.Exit(1)
		}
		if answer.Type != "" {
			continue // hello, async results: not answers to a request
		}
		answers[fmt.Sprint(answer.ID)] = answer
	}
	stdin.Close()
	status := 0
	if err := server.Wait(); err != nil {
		status = server.ProcessState.ExitCode()
	}

	ok := status == 0
	for _, r := range requests {
		answer, found := answers[r.ID]
		if !found || answer.Outcome == nil {
			fmt.Fprintf(os.Stderr, "%s: no outcome (%s)\n", r.ID, answer.Error)
			os.Exit(1)
		}
		reason := ""
		if answer.Outcome.Blocked && answer.Outcome.Reason != nil {
			reason = " reason=" + *answer.Outcome.Reason
		}
		fmt.Printf("%s: blocked=%t%s\n", r.ID, answer.Outcome.Blocked, reason)
	}
	fmt.Printf("server exited %d\n", status)
	ok = ok && answers["rm"].Outcome.Blocked && !answers["ls"].Outcome.Blocked
	if !ok {
		os.Exit(1)
	}
}
