package javadap

import (
	"context"
	"testing"
	"time"
)

func TestQueue(t *testing.T) {
	q := newQueue[int]()
	for i := 0; i < 3; i++ {
		q.Push(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if v, ok := q.Pop(ctx); !ok || v != i {
			t.Fatalf("Pop = %d, %v; want %d", v, ok, i)
		}
	}
	go func() {
		time.Sleep(10 * time.Millisecond)
		q.Push(7)
	}()
	if v, ok := q.Pop(ctx); !ok || v != 7 {
		t.Fatalf("Pop after wait = %d, %v", v, ok)
	}
	q.Push(8)
	q.Close()
	if v, ok := q.Pop(ctx); !ok || v != 8 {
		t.Fatalf("Pop drains after Close: %d, %v", v, ok)
	}
	if _, ok := q.Pop(ctx); ok {
		t.Fatal("Pop after Close and drain returned an item")
	}
	short, cancel2 := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel2()
	if _, ok := newQueue[int]().Pop(short); ok {
		t.Fatal("Pop on an empty queue did not honour ctx")
	}
}
