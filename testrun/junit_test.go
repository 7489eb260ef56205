package testrun

import (
	"testing"

	"github.com/dbg-dev/dbg/sessions"
)

func TestJunitIDsNameOverloadsByTheirParameters(t *testing.T) {
	t.Parallel()
	out := `│  │  ├─ pairs(int, int, int)
│  │  │     source: MethodSource [className = 'com.shop.CartTest', methodName = 'pairs', methodParameterTypes = 'int, int, int']
│  │  ├─ total()
│  │  │     source: MethodSource [className = 'com.shop.CartTest', methodName = 'total', methodParameterTypes = '']
│  │  ├─ total(int)
│  │  │     source: MethodSource [className = 'com.shop.CartTest', methodName = 'total', methodParameterTypes = 'int']
│  │  ├─ inner()
│  │  │     source: MethodSource [className = 'com.shop.CartTest$Nested', methodName = 'inner', methodParameterTypes = '']
`
	b := &junitBuild{classpath: "CP"}
	ids := junitIDs(out, fixtures(t)+"/junit", b)
	want := []struct{ id, selector, file string }{
		{"com.shop.CartTest#pairs", "com.shop.CartTest#pairs(int, int, int)", "src/test/java/com/shop/CartTest.java"},
		{"com.shop.CartTest#total()", "com.shop.CartTest#total()", "src/test/java/com/shop/CartTest.java"},
		{"com.shop.CartTest#total(int)", "com.shop.CartTest#total(int)", "src/test/java/com/shop/CartTest.java"},
		{"com.shop.CartTest$Nested#inner", "com.shop.CartTest$Nested#inner()", "src/test/java/com/shop/CartTest.java"},
	}
	if len(ids) != len(want) {
		t.Fatalf("junitIDs = %+v", ids)
	}
	for i, w := range want {
		if ids[i].ID != w.id || ids[i].junit.selector != w.selector || ids[i].File != w.file || ids[i].junit.build != b {
			t.Errorf("id %d = %+v %+v, want %+v", i, ids[i], ids[i].junit, w)
		}
	}
}

func TestJunitMessageReadsExpectedAndActual(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, expected, actual string }{
		{"org.opentest4j.AssertionFailedError: expected: <6> but was: <5>", "6", "5"},
		{"org.opentest4j.AssertionFailedError: total ==> expected: <a b> but was: <a>", "a b", "a"},
		{"java.lang.IllegalArgumentException: percent 150 is out of range", "", ""},
	} {
		f := junitMessage(t.Context(), &failureReader{stop: stopWithText(c.text)})
		if f.Message != c.text || f.Expected != c.expected || f.Actual != c.actual {
			t.Errorf("junitMessage(%q) = %+v", c.text, f)
		}
	}
}

func TestMavenErrorsKeepsTheCompilersLines(t *testing.T) {
	t.Parallel()
	out := "[ERROR] COMPILATION ERROR : \n[ERROR] /p/CartTest.java:[44,25] cannot find symbol\n[ERROR] -> [Help 1]\n" +
		"[ERROR] Re-run Maven using the -X switch to enable full debug logging.\n"
	if got := mavenErrors(out); got != "[ERROR] COMPILATION ERROR :\n[ERROR] /p/CartTest.java:[44,25] cannot find symbol" {
		t.Fatalf("mavenErrors = %q", got)
	}
}

func stopWithText(text string) *sessions.StopInfo {
	return &sessions.StopInfo{Reason: "exception", Text: text}
}

func TestJunitReachesRunnerOnlyThroughJUnitOrTheJDK(t *testing.T) {
	t.Parallel()
	for frame, want := range map[string]bool{
		"org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)":      true,
		"jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)": true,
		"org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:495)":                   true,
		"com.shop.Prices.totalOf(Prices.java:12)":                                                     false,
		"com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:10)":                 false,
		"org.junit.jupiter.api.AssertThrows.assertThrows(AssertThrows.java:53)":                       false,
		"org.junit.internal.runners.statements.ExpectException.evaluate(ExpectException.java:19)":     false,
	} {
		if got := junitReachesRunner(frame); got != want {
			t.Errorf("junitReachesRunner(%s) = %v, want %v", frame, got, want)
		}
	}
	if caughtIn("Exception: java.lang.IllegalArgumentException, caught in com.shop.Prices.totalOf(Prices.java:12)") != "com.shop.Prices.totalOf(Prices.java:12)" ||
		caughtIn("Uncaught exception: java.lang.IllegalStateException") != "" {
		t.Error("caughtIn does not read the Java adapter's stop description")
	}
}
