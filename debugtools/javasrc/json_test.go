package javasrc

import "testing"

func TestJSONNodeKeepsOrder(t *testing.T) {
	o := jsonObject()
	o.set("z", jsonRaw("1"))
	o.set("a", jsonString("q\"<\n"))
	arr := jsonArray()
	arr.add(jsonRaw("null"))
	arr.add(jsonObject())
	o.set("m", arr)
	o.set("z", jsonRaw("2")) // replaced in place
	if got := string(o.appendTo(nil)); got != `{"z":2,"a":"q\"\u003c\n","m":[null,{}]}` {
		t.Errorf("json = %s", got)
	}
}
