module example.com/loadloop

go 1.21
