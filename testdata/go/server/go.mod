module example.com/server

go 1.21
