package sessions

import "testing"

func TestExprStats(t *testing.T) {
	t.Parallel()
	var e ExprStats
	for _, v := range []traceValue{{value: "3"}, {value: "-1.5"}, {value: "'a'"}, {value: "3"}, {err: "gone"}, {value: `"a"`}, {value: "0x10"}, {value: "NaN"}} {
		e.add(v, 3)
	}
	s := e.snapshot()
	if s.First != "3" || s.Last != "NaN" || s.Min != "-1.5" || s.Max != "3" || s.Errors != 1 || s.LastError != "gone" {
		t.Errorf("%+v", s)
	}
	// 3 twice, a twice (quoted either way), -1.5; 0x10 and NaN over the cap.
	if len(s.Distinct) != 3 || s.Distinct[0] != (ValueCount{"3", 2}) || s.Distinct[1] != (ValueCount{"a", 2}) || !s.DistinctCapped || s.Others != 2 {
		t.Errorf("distinct %+v capped %v others %d", s.Distinct, s.DistinctCapped, s.Others)
	}
}
