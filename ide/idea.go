package ide

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
)

// maxConfigFile bounds the size of a configuration file dbg reads.
const maxConfigFile = 8 << 20

// xnode is a generic XML element.
type xnode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xnode    `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *xnode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *xnode) children(name string) []*xnode {
	var out []*xnode
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == name {
			out = append(out, &n.Nodes[i])
		}
	}
	return out
}

func (n *xnode) child(name string) *xnode {
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == name {
			return &n.Nodes[i]
		}
	}
	return nil
}

// option returns the value of <option name="name" value="..."/> found
// anywhere below n (IntelliJ nests options in settings elements).
func (n *xnode) option(name string) string {
	if o := n.findOption(name); o != nil {
		return o.attr("value")
	}
	return ""
}

func (n *xnode) findOption(name string) *xnode {
	for i := range n.Nodes {
		c := &n.Nodes[i]
		if c.XMLName.Local == "option" && c.attr("name") == name {
			return c
		}
		if o := c.findOption(name); o != nil {
			return o
		}
	}
	return nil
}

// optionList returns the values of a list-valued option:
// <option name="name"><list><option value="a"/>...</list></option>.
func (n *xnode) optionList(name string) []string {
	o := n.findOption(name)
	if o == nil {
		return nil
	}
	var out []string
	for _, coll := range o.Nodes {
		for _, it := range coll.Nodes {
			if v := it.attr("value"); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// valueOf returns the value attribute of a direct child element, the
// Go plugin's style: <kind value="PACKAGE"/>.
func (n *xnode) valueOf(name string) string {
	if c := n.child(name); c != nil {
		return c.attr("value")
	}
	return ""
}

// envs reads <envs><env name= value=/></envs>.
func (n *xnode) envs() map[string]string {
	e := n.child("envs")
	if e == nil {
		return nil
	}
	out := map[string]string{}
	for _, v := range e.children("env") {
		if k := v.attr("name"); k != "" {
			out[k] = v.attr("value")
		}
	}
	return out
}

// parseIdeaXML decodes an IntelliJ XML document.
func parseIdeaXML(b []byte) (*xnode, error) {
	var root xnode
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("invalid XML: %w", err)
	}
	return &root, nil
}

func readIdeaFile(path, source string, mx *macros, workspace bool) ([]RunConfiguration, error) {
	b, err := readRegular(path, maxConfigFile)
	if err != nil {
		return nil, err
	}
	return parseIdeaConfigs(b, source, mx, workspace)
}

// parseIdeaConfigs returns the saved configurations of an IntelliJ file:
// the <configuration> elements of a ProjectRunConfigurationManager
// component (.idea/runConfigurations, .run) or, when workspace is true,
// of the RunManager component, skipping templates (default="true" or
// inside <template>) and temporary configurations.
func parseIdeaConfigs(b []byte, source string, mx *macros, workspace bool) ([]RunConfiguration, error) {
	root, err := parseIdeaXML(b)
	if err != nil {
		return nil, err
	}
	var comps []*xnode
	if root.XMLName.Local == "component" {
		comps = []*xnode{root}
	} else {
		comps = root.children("component")
	}
	var out []RunConfiguration
	for _, comp := range comps {
		name := comp.attr("name")
		if workspace && name != "RunManager" {
			continue
		}
		if !workspace && name != "ProjectRunConfigurationManager" {
			continue
		}
		for _, c := range comp.children("configuration") {
			if c.attr("default") == "true" || c.attr("temporary") == "true" || c.attr("name") == "" {
				continue
			}
			out = append(out, ideaConfig(c, source, mx))
		}
	}
	return out, nil
}

// ideaTypes maps IntelliJ type ids to kinds and display names.
var ideaTypes = map[string]struct{ kind, name string }{
	"Application":                            {KindApplication, "Application"},
	"SpringBootApplicationConfigurationType": {KindSpringBoot, "Spring Boot"},
	"JUnit":                                  {KindJUnit, "JUnit"},
	"GradleRunConfiguration":                 {KindGradle, "Gradle"},
	"MavenRunConfiguration":                  {KindMaven, "Maven"},
	"GoApplicationRunConfiguration":          {KindGo, "Go Build"},
	"GoTestRunConfiguration":                 {KindGoTest, "Go Test"},
	"PythonConfigurationType":                {KindPython, "Python"},
	"NodeJSConfigurationType":                {KindNode, "Node.js"},
	"CompoundRunConfigurationType":           {KindCompound, "Compound"},
	"JetRunConfigurationType":                {KindApplication, "Kotlin"},
	"js.build_tools.npm":                     {KindNpm, "npm"},
	"ShConfigurationType":                    {KindShell, "Shell Script"},
	"Remote":                                 {KindRemoteJVM, "Remote JVM Debug"},
}

func ideaConfig(c *xnode, source string, mx *macros) RunConfiguration {
	typeID := c.attr("type")
	rc := RunConfiguration{Name: c.attr("name"), TypeID: typeID, Source: source, Kind: KindOther, TypeName: c.attr("factoryName")}
	if t, ok := ideaTypes[typeID]; ok {
		rc.Kind = t.kind
		if rc.TypeName == "" {
			rc.TypeName = t.name
		}
	}
	if rc.TypeName == "" {
		rc.TypeName = typeID
	}
	if m := c.child("module"); m != nil {
		rc.Module = m.attr("name")
	}
	rc.Env = expandEnv(c.envs(), mx, rc.Module)
	switch rc.Kind {
	case KindApplication, KindSpringBoot:
		main := c.option("MAIN_CLASS_NAME")
		if main == "" {
			main = c.option("SPRING_BOOT_MAIN_CLASS")
		}
		rc.Program = main
		rc.VMArgs = splitArgs(mx.expand(c.option("VM_PARAMETERS"), rc.Module))
		rc.Args = splitArgs(mx.expand(c.option("PROGRAM_PARAMETERS"), rc.Module))
		if p := c.option("ACTIVE_PROFILES"); p != "" && rc.Kind == KindSpringBoot {
			rc.VMArgs = append(rc.VMArgs, "-Dspring.profiles.active="+p)
		}
		rc.Cwd = mx.path(c.option("WORKING_DIRECTORY"), rc.Module)
		javaCommand(&rc, mx)
	case KindJUnit:
		rc.Program = c.option("MAIN_CLASS_NAME")
		rc.VMArgs = splitArgs(mx.expand(c.option("VM_PARAMETERS"), rc.Module))
		rc.Cwd = mx.path(c.option("WORKING_DIRECTORY"), rc.Module)
		junitCommand(&rc, mx, c.option("TEST_OBJECT"), c.option("PACKAGE_NAME"), c.option("METHOD_NAME"))
	case KindGradle:
		rc.Cwd = mx.path(c.option("externalProjectPath"), rc.Module)
		rc.Args = append(c.optionList("taskNames"), splitArgs(mx.expand(c.option("scriptParameters"), rc.Module))...)
		rc.VMArgs = splitArgs(mx.expand(c.option("vmOptions"), rc.Module))
		rc.Program = strings.Join(c.optionList("taskNames"), " ")
		gradleCommand(&rc)
	case KindMaven:
		rc.Cwd = mx.path(c.option("workingDirPath"), rc.Module)
		goals := c.optionList("goals")
		rc.Program = strings.Join(goals, " ")
		rc.Args = append(rc.Args, goals...)
		if prof := c.optionList("profiles"); len(prof) > 0 {
			rc.Args = append(rc.Args, "-P"+strings.Join(prof, ","))
		}
		rc.Args = append(rc.Args, splitArgs(mx.expand(c.option("cmdOptions"), rc.Module))...)
		if pom := c.option("pomFileName"); pom != "" && pom != "pom.xml" {
			rc.Args = append(rc.Args, "-f", pom)
		}
		mavenCommand(&rc)
	case KindGo, KindGoTest:
		rc.Cwd = mx.path(c.valueOf("working_directory"), rc.Module)
		rc.VMArgs = splitArgs(mx.expand(c.valueOf("go_parameters"), rc.Module))
		rc.Args = splitArgs(mx.expand(c.valueOf("parameters"), rc.Module))
		switch strings.ToUpper(c.valueOf("kind")) {
		case "FILE":
			rc.Program = mx.path(c.valueOf("filePath"), rc.Module)
		case "DIRECTORY":
			rc.Program = mx.path(c.valueOf("directory"), rc.Module)
		default:
			rc.Program = c.valueOf("package")
		}
		goCommand(&rc, c.valueOf("pattern"))
	case KindPython:
		rc.Cwd = mx.path(c.option("WORKING_DIRECTORY"), rc.Module)
		rc.Program = mx.expand(c.option("SCRIPT_NAME"), rc.Module)
		module := c.option("MODULE_MODE") == "true"
		if !module {
			rc.Program = mx.path(rc.Program, rc.Module)
		}
		rc.Args = splitArgs(mx.expand(c.option("PARAMETERS"), rc.Module))
		rc.VMArgs = splitArgs(mx.expand(c.option("INTERPRETER_OPTIONS"), rc.Module))
		pythonCommand(&rc, mx.project, mx.expand(c.option("SDK_HOME"), rc.Module), module)
	case KindNode:
		rc.Cwd = mx.path(c.attr("working-dir"), rc.Module)
		rc.Program = mx.path(c.attr("path-to-js-file"), rc.Module)
		rc.Args = splitArgs(mx.expand(c.attr("application-parameters"), rc.Module))
		rc.VMArgs = splitArgs(mx.expand(c.attr("node-parameters"), rc.Module))
		nodeCommand(&rc, mx.expand(c.attr("path-to-node"), rc.Module))
	case KindNpm:
		pkg := mx.path(c.valueOf("package-json"), rc.Module)
		if pkg != "" {
			rc.Cwd = filepath.Dir(pkg)
		}
		for _, sc := range c.children("scripts") {
			for _, it := range sc.children("script") {
				rc.Args = append(rc.Args, it.attr("value"))
			}
		}
		rc.Program = strings.Join(rc.Args, " ")
		npmCommand(&rc, c.valueOf("package-manager"), c.valueOf("command"), splitArgs(mx.expand(c.valueOf("arguments"), rc.Module)))
	case KindShell:
		rc.Cwd = mx.path(c.option("SCRIPT_WORKING_DIRECTORY"), rc.Module)
		rc.VMArgs = splitArgs(mx.expand(c.option("INTERPRETER_OPTIONS"), rc.Module))
		rc.Args = splitArgs(mx.expand(c.option("SCRIPT_OPTIONS"), rc.Module))
		interp := mx.expand(c.option("INTERPRETER_PATH"), rc.Module)
		if c.option("EXECUTE_SCRIPT_FILE") == "false" {
			shellCommand(&rc, interp, "", c.option("SCRIPT_TEXT"))
		} else {
			rc.Program = mx.path(c.option("SCRIPT_PATH"), rc.Module)
			shellCommand(&rc, interp, rc.Program, "")
		}
	case KindRemoteJVM:
		rc.Program = c.option("HOST") + ":" + c.option("PORT")
		rc.Unsupported = "a Remote JVM Debug configuration attaches to a running JVM; use debug_run_configuration"
	case KindCompound:
		for _, t := range c.children("toRun") {
			rc.Members = append(rc.Members, t.attr("name"))
		}
		rc.Unsupported = "a compound starts its members; restart them by name (debug_run_configuration debugs them together)"
	default:
		rc.Unsupported = fmt.Sprintf("dbg cannot run configurations of type %s", typeID)
	}
	if rc.Cwd == "" && rc.Kind != KindCompound {
		rc.Cwd = mx.moduleDir(rc.Module)
	}
	return rc
}

func expandEnv(env map[string]string, mx *macros, module string) map[string]string {
	if len(env) == 0 {
		return nil
	}
	for k, v := range env {
		env[k] = mx.expand(v, module)
	}
	return env
}
