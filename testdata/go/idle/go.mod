module example.com/idle

go 1.21
