package debugtools

import "github.com/dbg-dev/dbg/toolkit"

// registerPrompts adds call-java-method to tb, after the JVM tools.
func registerPrompts(tb *toolkit.Toolbox) {
	tb.AddPrompt(toolkit.Prompt{
		Name: "call-java-method", Title: "Call a Java method in a running JVM",
		Description: "Load dbg's agent into a local JVM and invoke one of its methods with arguments built from the sources.",
		Arguments: []toolkit.PromptArgument{
			{Name: "className", Description: "fully qualified class name", Required: true},
			{Name: "methodName", Required: true},
			{Name: "pid", Description: "the JVM's pid (list_attachable_jvms lists them)", Required: true},
		},
		Intro: "Attach the agent to the JVM, build the arguments' template from the project's sources, fill it in, and invoke.",
		Steps: []toolkit.PromptStep{
			{Tool: "list_attachable_jvms", Args: map[string]any{}, Why: "check the pid"},
			{Tool: "attach_local_jvm", Args: map[string]any{"pid": "{pid}", "waitForConnectionMillis": 60000}, Why: "the answer's connectionId is the connection"},
			{Tool: "generate_method_args_template", Args: map[string]any{"className": "{className}", "methodName": "{methodName}"}, Why: "its argsJson has one {type, content} per parameter: fill in each content"},
			{Tool: "invoke_java_method", Args: map[string]any{"connectionId": "{connectionId}", "className": "{className}", "methodName": "{methodName}", "argsJson": "{argsJson}"}, Why: "result, or throwable"},
			{Tool: "read_target_application_logs", Args: map[string]any{"connectionId": "{connectionId}", "limit": 20}, Why: "what the call logged"},
		},
	})
}
