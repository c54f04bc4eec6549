from .figures import main

main()
