package adapters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/dbg-dev/dbg/dap"
)

// Dart is the adapter of language "dart": the SDK's own debug adapter
// (`dart debug_adapter`, DAP over stdio) with the launch and attach
// arguments it documents: launch {program, args, cwd, env, toolArgs,
// vmAdditionalArgs}; attach {vmServiceUri} (or vmServiceInfoFile).
//
// Not exercised against a real Dart SDK on the development machines (it
// is not in Debian bookworm); the argument building and the discovery are
// unit-tested.
//
// A Dart value holds no per-session state and is safe for concurrent use.
type Dart struct{}

// NewDart returns the dart adapter.
func NewDart() *Dart { return &Dart{} }

// Language returns "dart".
func (d *Dart) Language() string { return "dart" }

// dartVersion pins the SDK that InstallCommands installs.
const dartVersion = "3.5.4-1"

// dartTool is the Dart SDK; its install follows the SDK's documented
// Debian install (its apt repository), pinned.
var dartTool = Tool{
	Language: "dart", What: "the Dart SDK (dart debug_adapter)",
	Names: []string{"dart"}, VersionArgs: []string{"--version"},
	Install: [][]string{
		{"sh", "-c", "curl -fsSL https://dl-ssl.google.com/linux/linux_signing_key.pub | gpg --dearmor -o /usr/share/keyrings/dart.gpg"},
		{"sh", "-c", "echo 'deb [signed-by=/usr/share/keyrings/dart.gpg arch=amd64] https://storage.googleapis.com/download.dartlang.org/linux/debian stable main' > /etc/apt/sources.list.d/dart_stable.list"},
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "dart=" + dartVersion},
	},
}

// Find reports the dart SDK and its version.
func (d *Dart) Find(ctx context.Context) Info {
	return dartTool.Describe(ctx, Info{
		Language: "dart", Adapter: "dart debug_adapter", Launch: true, AttachPort: true,
		Note: "untested here: the Dart SDK is not packaged for Debian bookworm; attach takes the VM service URI (adapterConfig.vmServiceUri) or host:port",
	})
}

// InstallCommands implements Installer.
func (d *Dart) InstallCommands() [][]string { return dartTool.InstallCommands() }

// Start starts `dart debug_adapter` with DAP on its stdio.
func (d *Dart) Start(ctx context.Context, t Target) (*Endpoint, error) {
	p, err := dartTool.Path()
	if err != nil {
		return nil, err
	}
	if t.ExecutablePath != "" {
		p = t.ExecutablePath
	}
	proc, err := dap.StartProcess(exec.Command(p, "debug_adapter"), dap.ProcessOptions{Stdio: true})
	if err != nil {
		return nil, fmt.Errorf("start dart debug_adapter: %w", err)
	}
	return &Endpoint{Conn: proc, Process: proc}, nil
}

// LaunchArgs returns the Dart CLI adapter's launch arguments.
func (d *Dart) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("no program to launch: give a .dart file")
	}
	prog, _, err := programPath("program", t.Program, t.Cwd)
	if err != nil {
		return nil, err
	}
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	args := map[string]any{
		"type": "dart", "name": "dbg", "request": "launch",
		"program": prog, "args": nonNil(t.Args), "cwd": cwd,
	}
	if len(t.Env) > 0 {
		args["env"] = t.Env
	}
	if t.JustMyCode != nil {
		args["debugSdkLibraries"] = !*t.JustMyCode
		args["debugExternalPackageLibraries"] = !*t.JustMyCode
	}
	if len(t.SourcePaths) > 0 {
		args["additionalProjectPaths"] = t.SourcePaths
	}
	return merge(args, t.Extra), nil
}

// AttachArgs returns the attach arguments: the VM service URI from
// adapterConfig (vmServiceUri or vmServiceInfoFile), else one built from
// host and port.
func (d *Dart) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	args := map[string]any{"type": "dart", "name": "dbg", "request": "attach"}
	_, hasURI := t.Extra["vmServiceUri"]
	_, hasFile := t.Extra["vmServiceInfoFile"]
	if !hasURI && !hasFile {
		if t.Port <= 0 {
			return nil, errors.New("dart attaches to a VM service: give adapterConfig.vmServiceUri (printed by `dart run --enable-vm-service`) or its port")
		}
		host := t.Host
		if host == "" {
			host = "127.0.0.1"
		}
		args["vmServiceUri"] = "ws://" + net.JoinHostPort(host, strconv.Itoa(t.Port)) + "/ws"
	}
	if t.Cwd != "" {
		args["cwd"] = t.Cwd
	}
	return merge(args, t.Extra), nil
}

// StopReason: the Dart adapter speaks DAP's reasons.
func (d *Dart) StopReason(reason string) string { return reason }

// ExceptionFilters maps modes to the Dart adapter's filters.
func (d *Dart) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"All"}
	case "uncaught":
		return []string{"Unhandled"}
	}
	return nil
}

// Traits: a VM service (vmServiceUri, vmServiceInfoFile) or a Flutter
// device (deviceId) names an attach target; a dart process is Dart's.
func (d *Dart) Traits() Traits {
	return Traits{AttachKeys: []string{"vmServiceUri", "vmServiceInfoFile", "deviceId"}, Commands: []string{"dart"},
		Children: ChildProcesses{Reason: "the Dart debug adapter follows no child process: attach to the child's VM service (vmServiceUri)"},
		NoCore:   "the Dart VM service debugs live isolates only; a crashed Dart VM's core is a C program's (language c, coreFile, program: the dart binary)",
		Remote: &Remote{
			Refused: "the Dart VM's service URI carries its own secret, which dbg cannot read on another machine: forward the VM service yourself and pass adapterConfig.vmServiceUri"}}
}
