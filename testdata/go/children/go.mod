module example.com/children

go 1.21
