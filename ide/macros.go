package ide

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
)

// macros expands IntelliJ path macros: $PROJECT_DIR$, $MODULE_DIR$ (the
// folder of the module's .iml, from .idea/modules.xml; the project when
// the module is unknown), $MODULE_WORKING_DIR$ and $USER_HOME$.
type macros struct {
	project string
	modules map[string]string // module name -> directory
	home    string
}

func newMacros(project string) *macros {
	m := &macros{project: project, modules: map[string]string{}}
	m.home, _ = os.UserHomeDir()
	b, err := readRegular(filepath.Join(project, ".idea", "modules.xml"), maxConfigFile)
	if err != nil {
		return m
	}
	var doc struct {
		Components []struct {
			Modules []struct {
				FilePath string `xml:"filepath,attr"`
			} `xml:"modules>module"`
		} `xml:"component"`
	}
	if xml.Unmarshal(b, &doc) != nil {
		return m
	}
	for _, c := range doc.Components {
		for _, mod := range c.Modules {
			p := strings.ReplaceAll(mod.FilePath, "$PROJECT_DIR$", project)
			name := strings.TrimSuffix(filepath.Base(p), ".iml")
			m.modules[name] = filepath.Dir(filepath.FromSlash(p))
		}
	}
	return m
}

// moduleDir returns the directory of a module.
func (m *macros) moduleDir(module string) string {
	if d, ok := m.modules[module]; ok {
		return d
	}
	return m.project
}

// expand replaces the macros in s for a configuration of module.
func (m *macros) expand(s, module string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	md := m.moduleDir(module)
	r := strings.NewReplacer(
		"$PROJECT_DIR$", m.project,
		"$MODULE_DIR$", md,
		"$MODULE_WORKING_DIR$", md,
		"$USER_HOME$", m.home,
	)
	return r.Replace(s)
}

// path expands s and makes it an absolute, clean path; relative paths
// are relative to the project. An empty s stays empty.
func (m *macros) path(s, module string) string {
	s = strings.TrimSpace(m.expand(s, module))
	if s == "" {
		return ""
	}
	s = filepath.FromSlash(s)
	if !filepath.IsAbs(s) {
		s = filepath.Join(m.project, s)
	}
	return filepath.Clean(s)
}
