print('stand-in for the SDK tests code folder')
